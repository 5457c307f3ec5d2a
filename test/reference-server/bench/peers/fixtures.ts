/**
 * The data every server in the throughput benchmark serves: one user with a key, a paid team, a board with a
 * list of 50 tasks (read) and an empty list (written to). The reference server gets it as a seed; the peers
 * get the same payloads as their examples / database, so every server answers the same bytes.
 */
import type { Task } from '@threadwork/shared/schemas';
import type { SeedInput } from '../../src/index.ts';

export const BENCH_KEY = 'tw_bench_secret_0123456789abcdef';
export const READ_LIST = 'lst_bench_read';
export const WRITE_LIST = 'lst_bench_write';

export function benchSeed() {
  return {
    users: [{ id: 'usr_bench', email: 'bench@example.com', display_name: 'Bench' }],
    teams: [
      {
        id: 'team_bench',
        name: 'Bench',
        members: ['usr_bench'],
        subscription: { plan: 'pro', status: 'active' },
      },
    ],
    boards: [
      {
        id: 'brd_bench',
        team_id: 'team_bench',
        owner_id: null,
        name: 'Bench board',
        board_type: 'shared',
        template: null,
        lists: [
          { id: READ_LIST, name: 'Read' },
          { id: WRITE_LIST, name: 'Write' },
        ],
        custom_fields: [],
      },
    ],
    tasks: Array.from({ length: 50 }, (_, index) => ({
      id: `tsk_bench_${String(index).padStart(3, '0')}`,
      list_id: READ_LIST,
      title: `Task ${index}: follow up with the customer about the quote`,
      notes: index % 3 === 0 ? 'Call before noon.' : null,
      created_at: '2026-01-05T10:00:00Z',
      thread_ids: index % 2 === 0 ? [`18c2f0a1b2c3${String(index).padStart(4, '0')}`] : [],
    })),
    api_keys: [
      {
        id: 'key_bench',
        user_id: 'usr_bench',
        type: 'v2',
        name: 'bench',
        secret: BENCH_KEY,
        scopes: ['boards.read', 'lists.read', 'tasks.read', 'tasks.write'],
      },
    ],
  } satisfies SeedInput;
}

/** The v2 Task the reference server answers for a seeded task (used as the peers' example payload). */
export function benchTask(seedTask: ReturnType<typeof benchSeed>['tasks'][number]): Task {
  return {
    id: seedTask.id,
    content_type: 'task',
    title: seedTask.title,
    notes: seedTask.notes,
    board_id: 'brd_bench',
    board_name: 'Bench board',
    list_id: seedTask.list_id,
    list_name: 'Read',
    completed: false,
    shade: 'none',
    custom_fields: [],
    due_at: null,
    created_at: seedTask.created_at,
    thread_ids: seedTask.thread_ids,
    contact_id: null,
    deal: null,
    assignee: null,
    first_thread: null,
  };
}
