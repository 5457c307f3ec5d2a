import type { Task } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejection, zapierMessage } from '../helpers/auth.ts';
import { type Connected, IDS, startConnected, THREADS } from './live.ts';

// The task, board and list actions against a live reference server: each create runs twice with the same
// inputs (a replayed Zap step) and the service holds one object.

let live: Connected;

beforeAll(async () => {
  live = await startConnected();
});

afterAll(async () => {
  await live?.server.stop();
});

async function tasksIn(listId: string): Promise<Task[]> {
  const tasks: Task[] = [];
  for await (const task of live.service.tasks.list({ list_id: listId })) tasks.push(task);
  return tasks;
}

async function newTask(title: string, listId: string = IDS.todo): Promise<Task> {
  return live.service.tasks.create({ list_id: listId, title });
}

describe('task actions, live', () => {
  it('create_task twice with the same inputs creates one task', async () => {
    const inputs = {
      list_id: IDS.todo,
      title: 'Live: call Bob',
      notes: 'About the roof',
      position: 'bottom',
    };
    const task = await live.twice('create_task', inputs);
    expect(task).toMatchObject({ title: 'Live: call Bob', notes: 'About the roof', list_id: IDS.todo });
    const matches = (await tasksIn(IDS.todo)).filter((candidate) => candidate.title === 'Live: call Bob');
    expect(matches.map((candidate) => candidate.id)).toEqual([task['id']]);
    expect((await tasksIn(IDS.todo)).at(-1)?.id).toBe(task['id']);
  });

  it('create_task_from_thread twice creates one task, linked to the thread, with the title given', async () => {
    const inputs = { list_id: IDS.doing, thread_id: THREADS.lunch.id, title: 'Live: lunch reply' };
    const task = await live.twice('create_task_from_thread', inputs);
    expect(task).toMatchObject({ title: 'Live: lunch reply', thread_ids: [THREADS.lunch.id] });
    const matches = (await tasksIn(IDS.doing)).filter((candidate) =>
      candidate.thread_ids.includes(THREADS.lunch.id),
    );
    expect(matches).toHaveLength(1);
  });

  it('create_task_from_thread without a title takes the subject', async () => {
    const task = await live.run('creates', 'create_task_from_thread', {
      list_id: IDS.done,
      thread_id: THREADS.roof.id,
    });
    expect(task).toMatchObject({ title: THREADS.roof.subject, list_id: IDS.done });
  });

  it('complete_task and mark_task_incomplete (v1), each twice, leave the task as asked', async () => {
    const { id } = await newTask('Live: complete me');
    expect(await live.twice('complete_task', { task_id: id })).toMatchObject({ id, completed: true });
    expect((await live.service.tasks.get(id)).completed).toBe(true);
    expect(await live.twice('mark_task_incomplete', { task_id: id })).toEqual({
      id,
      completed: false,
    });
    expect((await live.service.tasks.get(id)).completed).toBe(false);
  });

  it('assign_task (v1) twice assigns; unassign_task with the task alone finds the assignee and unassigns', async () => {
    const { id } = await newTask('Live: assign me');
    await live.twice('assign_task', { task_id: id, assignee_email: 'bob@example.com' });
    expect((await live.service.tasks.get(id)).assignee?.email).toBe('bob@example.com');
    expect(await live.run('creates', 'unassign_task', { task_id: id })).toEqual({
      id,
      assignee_email: null,
      unassigned_email: 'bob@example.com',
    });
    expect((await live.service.tasks.get(id)).assignee).toBeNull();
    // The same step again: nobody is assigned, so nothing is sent.
    expect(await live.run('creates', 'unassign_task', { task_id: id })).toEqual({
      id,
      assignee_email: null,
      unassigned_email: null,
    });
  });

  it('move_task twice moves the task once, to the place asked', async () => {
    const anchor = await newTask('Live: anchor', IDS.doing);
    const { id } = await newTask('Live: move me');
    const moved = await live.twice('move_task', {
      task_id: id,
      list_id: IDS.doing,
      after_task_id: anchor.id,
    });
    expect(moved).toMatchObject({ id, list_id: IDS.doing });
    const doing = (await tasksIn(IDS.doing)).map((task) => task.id);
    expect(doing.filter((candidate) => candidate === id)).toHaveLength(1);
    expect(doing.indexOf(id)).toBe(doing.indexOf(anchor.id) + 1);
  });

  it('move_task to another board’s list is refused unless that board is chosen, and then drops the custom field values', async () => {
    const { id } = await newTask('Live: cross-board move');
    const values = [{ field_id: IDS.priority, value: [IDS.priorityHigh] }];
    await live.service.tasks.update(id, { custom_fields: values });
    const refused = zapierMessage(
      await rejection(live.run('creates', 'move_task', { task_id: id, list_id: IDS.leads })),
    );
    expect(refused).toBe(
      `Destination List: \`${IDS.leads}\` is not a list of the task's board "Roadmap". Moving the task to another board would drop its custom field values, and moving it back would not restore them: to move it there anyway, choose that board in Board and pick this list from it.`,
    );
    // Nothing moved, nothing lost.
    expect(await live.service.tasks.get(id)).toMatchObject({ list_id: IDS.todo, custom_fields: values });
    // Board left empty, a list of the task's own board: moved.
    await live.run('creates', 'move_task', { task_id: id, list_id: IDS.doing });
    expect((await live.service.tasks.get(id)).list_id).toBe(IDS.doing);
    // The board chosen explicitly: the move runs, and the values are gone, as the help text says.
    const moved = await live.twice('move_task', {
      board_id: IDS.salesBoard,
      task_id: id,
      list_id: IDS.leads,
    });
    expect(moved).toMatchObject({ id, list_id: IDS.leads, board_id: IDS.salesBoard });
    expect(await live.service.tasks.get(id)).toMatchObject({ list_id: IDS.leads, custom_fields: [] });
  });

  it('assign_task takes a member’s exact name or user ID as well as an email', async () => {
    const { id } = await newTask('Live: assign by name');
    await live.run('creates', 'assign_task', { task_id: id, assignee_email: 'bob stone' });
    expect((await live.service.tasks.get(id)).assignee?.email).toBe('bob@example.com');
    await live.run('creates', 'assign_task', { task_id: id, assignee_email: IDS.ada });
    expect((await live.service.tasks.get(id)).assignee?.email).toBe('ada@example.com');
    const error = await rejection(
      live.run('creates', 'assign_task', { task_id: id, assignee_email: 'Carol' }),
    );
    expect(zapierMessage(error)).toBe(
      'Assignee: "Carol" is no member of the task\'s board: use a member\'s email, user ID or full name (members: Ada Lovelace <ada@example.com>, Bob Stone <bob@example.com>).',
    );
    expect((await live.service.tasks.get(id)).assignee?.email).toBe('ada@example.com');
  });

  it('custom field inputs: a board without fields, and one whose only fields are AI-managed, say why', async () => {
    const fields = await live.inputFields('set_custom_fields', { board_id: IDS.salesBoard });
    expect(fields.filter((field) => String(field['key']).startsWith('custom_field'))).toEqual([
      {
        key: 'custom_fields_note',
        label: 'Custom Fields',
        type: 'copy',
        helpText: 'This board has no custom fields.',
      },
    ]);
    const roadmap = await live.inputFields('set_custom_fields', { board_id: IDS.board });
    expect(roadmap.map((field) => field['label'])).toEqual(
      expect.arrayContaining(['Priority', 'Estimate (days)']),
    );
    expect(roadmap.map((field) => field['label'])).not.toContain('Reply status');
  });

  it('reorder_task twice puts the task at the bottom, and says where it landed', async () => {
    const { id } = await newTask('Live: reorder me', IDS.done);
    const result = await live.twice('reorder_task', { task_id: id, position: 'bottom' });
    expect(result).toMatchObject({ id, persisted: true });
    expect((await tasksIn(IDS.done)).at(-1)?.id).toBe(id);
  });

  it('set_task_color twice sets the colour', async () => {
    const { id } = await newTask('Live: colour me');
    expect(await live.twice('set_task_color', { task_id: id, shade: 'red' })).toMatchObject({
      id,
      shade: 'red',
    });
    expect((await live.service.tasks.get(id)).shade).toBe('red');
  });

  it('link_thread twice links the thread once', async () => {
    const { id } = await newTask('Live: link me');
    const result = await live.twice('link_thread', { task_id: id, thread_id: THREADS.roof.id });
    expect(result).toEqual({ id, thread_ids: [THREADS.roof.id] });
    expect((await live.service.tasks.get(id)).thread_ids).toEqual([THREADS.roof.id]);
  });

  it('a task in a team without a paid subscription is refused with what to do, and nothing is created', async () => {
    await expect(
      live.run('creates', 'create_task', { list_id: IDS.unpaidList, title: 'Live: unpaid' }),
    ).rejects.toThrow(/no active paid subscription/);
    expect((await tasksIn(IDS.todo)).some((task) => task.title === 'Live: unpaid')).toBe(false);
  });

  it('bad input is refused with a clear message before anything is sent', async () => {
    await expect(live.run('creates', 'create_task', { list_id: IDS.todo, title: '  ' })).rejects.toThrow(
      /Title: is required/,
    );
    await expect(
      live.run('creates', 'set_task_color', { task_id: 'tsk_missing', shade: 'octarine' }),
    ).rejects.toThrow(/Color: must be one of none, yellow/);
  });

  it('an unknown task is answered by the input’s label and the id the service did not find', async () => {
    await expect(live.run('creates', 'complete_task', { task_id: 'tsk_missing' })).rejects.toThrow(
      'Task `tsk_missing` was not found, or this account cannot see it: pick it again from Task.',
    );
  });
});

describe('custom fields, live', () => {
  it("offers the board's fields (AI fields left out, tag options as choices) and sets them once", async () => {
    const fields = await live.inputFields('set_custom_fields', { board_id: IDS.board });
    const dynamic = fields.filter((field) => String(field['key']).startsWith('custom_field__'));
    expect(dynamic.map((field) => field['key'])).toEqual([
      `custom_field__${IDS.priority}`,
      `custom_field__${IDS.estimate}`,
    ]);
    expect(dynamic[0]).toMatchObject({
      label: 'Priority',
      list: true,
      choices: [
        { value: IDS.priorityHigh, label: 'High', sample: IDS.priorityHigh },
        { value: IDS.priorityLow, label: 'Low', sample: IDS.priorityLow },
      ],
    });
    expect(dynamic[1]).toMatchObject({ label: 'Estimate (days)', type: 'number' });

    // Zapier hands each field's meta back with the inputs.
    const meta = {
      inputFields: Object.fromEntries(dynamic.map((field) => [field['key'], field['meta']])),
    };
    const { id } = await newTask('Live: fields');
    const inputs = {
      board_id: IDS.board,
      task_id: id,
      [`custom_field__${IDS.priority}`]: [IDS.priorityHigh],
      [`custom_field__${IDS.estimate}`]: '2.5',
    };
    const task = await live.twice('set_custom_fields', inputs, meta);
    const expected = [
      { field_id: IDS.priority, value: [IDS.priorityHigh] },
      { field_id: IDS.estimate, value: 2.5 },
    ];
    // The step's output names each field and gives option labels beside their ids.
    expect(task['custom_fields']).toEqual(
      expect.arrayContaining([
        { ...expected[0], name: 'Priority', labels: ['High'] },
        { ...expected[1], name: 'Estimate (days)' },
      ]),
    );
    expect((await live.service.tasks.get(id)).custom_fields).toEqual(expect.arrayContaining(expected));
  });

  it('without field types it reads the board, takes an option by label, and refuses the AI field by name', async () => {
    const { id } = await newTask('Live: fields by label');
    const task = await live.run('creates', 'set_custom_fields', {
      board_id: IDS.board,
      task_id: id,
      [`custom_field__${IDS.priority}`]: 'low',
    });
    expect((task as Task).custom_fields).toEqual([
      { field_id: IDS.priority, value: [IDS.priorityLow], name: 'Priority', labels: ['Low'] },
    ]);
    await expect(
      live.run('creates', 'set_custom_fields', {
        board_id: IDS.board,
        task_id: id,
        [`custom_field__${IDS.replyStatus}`]: 'opt_needs_reply',
      }),
    ).rejects.toThrow(/Reply status: is managed by the AI/);
  });
});

describe('board and list actions, live', () => {
  it('create_board twice creates one board', async () => {
    const board = await live.twice('create_board', { team_id: IDS.paidTeam, name: 'Live: Roadmap 2026' });
    expect(board).toMatchObject({ name: 'Live: Roadmap 2026', team_id: IDS.paidTeam, board_type: 'shared' });
    const named = [];
    for await (const candidate of live.service.boards.list({ team_id: IDS.paidTeam })) {
      if (candidate.name === 'Live: Roadmap 2026') named.push(candidate.id);
    }
    expect(named).toEqual([board['id']]);
  });

  it('create_list twice creates one list', async () => {
    const list = await live.twice('create_list', { board_id: IDS.board, name: 'Live: Waiting' });
    expect(list).toMatchObject({ name: 'Live: Waiting', board_id: IDS.board });
    const named = [];
    for await (const candidate of live.service.lists.list(IDS.board)) {
      if (candidate.name === 'Live: Waiting') named.push(candidate.id);
    }
    expect(named).toEqual([list['id']]);
  });
});

describe('searches, live', () => {
  it('find_task finds the exact title only, in a list or on a whole board; partial ones only when allowed', async () => {
    const exact = await newTask('Live: find Carol', IDS.todo);
    const longer = await newTask('Live: find Carol again', IDS.doing);
    const ids = (found: unknown) =>
      (found as Array<Task & { match_type: string }>).map((task) => [task.id, task.match_type]);
    expect(
      ids(await live.run('searches', 'find_task', { list_id: IDS.todo, title: ' live: find carol ' })),
    ).toEqual([[exact.id, 'exact']]);
    // An exact title wins even when partial matches are allowed.
    expect(
      ids(
        await live.run('searches', 'find_task', {
          board_id: IDS.board,
          title: 'Live: find Carol',
          allow_partial: 'yes',
        }),
      ),
    ).toEqual([[exact.id, 'exact']]);
    // "Live: find Car" is no task's title: nothing, unless partial matches are allowed.
    expect(await live.run('searches', 'find_task', { board_id: IDS.board, title: 'Live: find Car' })).toEqual(
      [],
    );
    expect(
      ids(
        await live.run('searches', 'find_task', {
          board_id: IDS.board,
          title: 'Live: find Car',
          allow_partial: 'yes',
        }),
      ).sort(),
    ).toEqual(
      [
        [exact.id, 'partial'],
        [longer.id, 'partial'],
      ].sort(),
    );
  });

  it('find-or-create: "Plan Q2" is created beside "Plan Q2 roadmap review", and then found exactly', async () => {
    await newTask('Live: Plan Q2 roadmap review', IDS.done);
    // Zapier hands the same inputs to the search and the create: both take `title`.
    const search = { list_id: IDS.done, title: 'Live: Plan Q2' };
    expect(await live.run('searches', 'find_task', search)).toEqual([]);
    const created = await live.run('creates', 'create_task', search);
    expect(await live.run('searches', 'find_task', search)).toEqual([
      { ...(created as object), match_type: 'exact' },
    ]);
  });

  it('find_task_by_id finds a task by a mapped ID (the first that exists of a list), or a thread’s task', async () => {
    const task = await newTask('Live: by id', IDS.todo);
    const found = (await live.run('searches', 'find_task_by_id', {
      task_id: `tsk_missing, ${task.id}`,
    })) as Task[];
    expect(found.map((each) => each.id)).toEqual([task.id]);
    expect(await live.run('searches', 'find_task_by_id', { task_id: 'tsk_missing' })).toEqual([]);
    await live.service.tasks.linkThread(task.id, { thread_id: THREADS.lunch.id });
    const byThread = (await live.run('searches', 'find_task_by_id', {
      thread_id: THREADS.lunch.id,
    })) as Array<Task & { first_thread_id: string }>;
    // The thread's first linked task (other tests may have linked the thread to tasks of theirs first).
    const linked = (await live.service.emailThreads.get(THREADS.lunch.id)).linked_tasks ?? [];
    expect(linked.map((each) => each.id)).toContain(task.id);
    expect(byThread.map((each) => each.id)).toEqual([linked[0]?.id]);
    expect(byThread[0]?.thread_ids).toContain(THREADS.lunch.id);
  });

  it('find_thread finds threads with a mailbox query', async () => {
    const found = (await live.run('searches', 'find_thread', { q: 'from:bob@stone.test' })) as Array<{
      thread_id: string;
      subject: string;
    }>;
    expect(found.map((thread) => thread.thread_id)).toEqual([THREADS.roof.id]);
    expect(found[0]?.subject).toBe(THREADS.roof.subject);
  });
});
