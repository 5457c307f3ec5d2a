/**
 * Where the task goes: team (or "Personal"), board and list, each a choice the service answered for the one
 * before it; and what depends on the board (its members, its custom fields). The remembered choice of the
 * last create is asked for at once, all of it in parallel, so a returning user waits one round trip, not one
 * per step; the answers kept from the last use show before that.
 */
import type { Board, BoardMember, CustomField, List, Team } from '@threadwork/shared/schemas';
import { useRef, useState } from 'preact/hooks';
import type { Send } from '../../lib/messaging.ts';
import type { Choice } from '../../lib/protocol.ts';
import { PERSONAL } from '../../lib/protocol-values.ts';
import type { Answers } from './answers.ts';
import { type RemoteHandle, useChoice, useRemote } from './remote.ts';

/** A team where tasks can be made (the same `paid` the service gates on). */
const isPaid = (team: Team) => team.subscription?.paid !== false;

/** One entry of the team picker: a team, or the user's personal boards. */
export interface TeamChoice {
  id: string;
  name: string;
  paid: boolean;
}

export interface Destination {
  teams: RemoteHandle<Team[]>;
  personal: RemoteHandle<Board[]>;
  boards: RemoteHandle<Board[]>;
  lists: RemoteHandle<List[]>;
  members: RemoteHandle<BoardMember[]>;
  fields: RemoteHandle<CustomField[]>;
  /** The team picker's entries: the teams, then "Personal" when the user has personal boards; null until known. */
  teamChoices: TeamChoice[] | null;
  teamId: string;
  boardId: string;
  listId: string;
  assignee: string;
  /** The chosen team (or Personal), when the service listed it. */
  team: TeamChoice | undefined;
  unpaid: boolean;
  boardValid: boolean;
  listValid: boolean;
  /** Team, board and list are choices the service answered for each other: Create may send them. */
  valid: boolean;
  /** What a create remembers: the choice as it is now. */
  choice: Choice;
  chooseTeam(id: string): void;
  chooseBoard(id: string): void;
  chooseList(id: string): void;
  chooseAssignee(email: string): void;
  /** A create landed here: this is the default from now on. */
  remember(choice: Choice): void;
}

/** `enabled`: false until the extension is set up (nothing is asked of the service). */
export function useDestination(
  send: Send,
  initial: Choice | null,
  enabled: boolean,
  answers: Answers,
): Destination {
  const [remembered, setRemembered] = useState(initial);
  const [teamId, setTeamId] = useState(initial?.team_id ?? '');
  const [boardId, setBoardId] = useState(initial?.board_id ?? '');
  const [listId, setListId] = useState(initial?.list_id ?? '');
  const [assignee, setAssignee] = useState('');

  // The answers Create waits for are asked first: a browser opens at most six connections to one service.
  const teams = useRemote<Team[]>(enabled ? 'teams' : null, () => send({ type: 'teams.list' }), answers);
  const personalBoards = useRemote<Board[]>(
    enabled ? 'personal-boards' : null,
    () => send({ type: 'boards.personal' }),
    answers,
  );
  const isPersonal = teamId === PERSONAL;
  // "Personal" joins the teams once its answer comes (a failure there means none to offer); the teams do not
  // wait for it, unless Personal is the choice to keep.
  const personalPending = personalBoards.data === null && personalBoards.state?.error == null;
  const teamChoices =
    teams.data === null || (personalPending && isPersonal)
      ? null
      : [
          ...teams.data.map((team) => ({ id: team.id, name: team.name, paid: isPaid(team) })),
          ...((personalBoards.data ?? []).length > 0 ? [{ id: PERSONAL, name: 'Personal', paid: true }] : []),
        ];
  // The default team is one where a task can be made: the remembered one while it is paid, else the first
  // paid; an unpaid team stays chosen only when the user chose it.
  const teamPicked = useRef(false);
  useChoice(
    teamChoices,
    setTeamId,
    () => remembered?.team_id,
    (team) => team.paid,
    (team) => team.paid || teamPicked.current,
  );
  const team = teamChoices?.find((candidate) => candidate.id === teamId);
  const unpaid = team !== undefined && !team.paid;

  // The remembered team's boards are asked for before the teams answer; an unpaid team's are never asked for.
  const teamBoards = useRemote<Board[]>(
    enabled && teamId !== '' && !isPersonal && !unpaid ? `boards:${teamId}` : null,
    () => send({ type: 'boards.list', team_id: teamId }),
    answers,
  );
  const boards = isPersonal ? personalBoards : teamBoards;
  useChoice(boards.data, setBoardId, () => remembered?.board_id);
  const boardValid = team !== undefined && boards.data?.some((board) => board.id === boardId) === true;

  const boardKey = enabled && boardId !== '' && !unpaid ? boardId : null;
  const lists = useRemote<List[]>(
    boardKey && `lists:${boardKey}`,
    () => send({ type: 'lists.list', board_id: boardId }),
    answers,
  );
  useChoice(lists.data, setListId, () => remembered?.list_id);
  const listValid = boardValid && lists.data?.some((list) => list.id === listId) === true;

  const members = useRemote<BoardMember[]>(
    boardKey && `members:${boardKey}`,
    () => send({ type: 'members.list', board_id: boardId }),
    answers,
  );
  const fields = useRemote<CustomField[]>(
    boardKey && `fields:${boardKey}`,
    () => send({ type: 'fields.list', board_id: boardId }),
    answers,
  );
  // An assignee who is not a member of the chosen board is no choice.
  const assigneeValid = assignee === '' || members.data?.some((member) => member.email === assignee) === true;

  return {
    teams,
    personal: personalBoards,
    boards,
    lists,
    members,
    fields,
    teamChoices,
    teamId,
    boardId,
    listId,
    assignee: assigneeValid ? assignee : '',
    team,
    unpaid,
    boardValid,
    listValid,
    valid: team !== undefined && !unpaid && boardValid && listValid,
    choice: { team_id: teamId, board_id: boardId, list_id: listId },
    chooseTeam: (id) => {
      if (id === teamId) return;
      teamPicked.current = true;
      setTeamId(id);
      // The board and list of another team mean nothing here: the new team's answer picks them.
      setBoardId('');
      setListId('');
    },
    chooseBoard: (id) => {
      if (id === boardId) return;
      setBoardId(id);
      setListId('');
    },
    chooseList: setListId,
    chooseAssignee: setAssignee,
    remember: setRemembered,
  };
}
