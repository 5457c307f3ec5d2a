// v2 resource shapes, built from domain records (no per-response schema parse).
import type { Board, List, Me, Team } from '@threadwork/shared/schemas';
import type { BoardRecord } from '../../domain/boards.ts';
import type { ListRecord } from '../../domain/lists.ts';
import type { Page } from '../../domain/pagination.ts';
import type { Principal } from '../../domain/principal.ts';
import type { TeamRecord } from '../../domain/teams.ts';

export function presentMe(principal: Principal): Me {
  const me: Me = { user_id: principal.userId, email: principal.email, display_name: principal.displayName };
  // Legacy token auth has no key of its own to show.
  if (principal.keyType === 'v2' && principal.keyId) {
    me.key = { id: principal.keyId, type: 'v2', scopes: [...principal.scopes] };
  }
  return me;
}

export function presentTeam(team: TeamRecord): Team {
  return { id: team.id, name: team.name, subscription: team.subscription };
}

export function presentBoard(board: BoardRecord): Board {
  return {
    id: board.id,
    name: board.name,
    board_type: board.board_type,
    template: board.template,
    team_id: board.team_id,
    subscription: board.subscription,
  };
}

export function presentList(list: ListRecord): List {
  return { id: list.id, name: list.name, board_id: list.board_id };
}

/** A page of records, each shown as `present` shows it. */
export function presentPage<R, T>(page: Page<R>, present: (record: R) => T): Page<T> {
  return { items: page.items.map(present), pagination: page.pagination };
}
