/**
 * The pickers, the task operations and the task triggers against a live reference server, as a Zap
 * builder uses them: pick from a dropdown, run the step with the picked value, then read the service's
 * state (never the step's output alone). Hooks subscribe through appTester, deliveries arrive on a local
 * receiver and go to `perform`.
 */
import type { Task, ThreadworkClient } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import type { ReceivedRequest, WebhookReceiver } from '../../../test/e2e/test/helpers/receiver.ts';
import { App, appTester, type Operation, rejection, zapierMessage } from '../helpers/auth.ts';
import { deliveryBundle, IDS, startConnectedServer, startReceiver } from '../helpers/live.ts';
import { triggerOperation } from '../helpers/triggers.ts';

type Operations = Record<string, { operation: Record<string, unknown> }>;
const trigger = triggerOperation;
/** A trigger's static sample (what the Zap editor shows before any live sample). */
const staticSample = (key: string) =>
  (App.triggers as unknown as Operations)[key]!.operation['sample'] as Record<string, unknown>;
function step(kind: 'creates' | 'searches', key: string, name = 'perform'): Operation {
  return (App[kind] as unknown as Operations)[key]?.operation[name] as Operation;
}

let server: LiveServer;
let authData: Record<string, string>;
let service: ThreadworkClient;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ({ server, authData, service } = await startConnectedServer());
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

const dropdown = (key: string, inputData: Record<string, unknown>) =>
  appTester(trigger(key, 'perform'), {
    authData,
    inputData,
    meta: { page: 0, isFillingDynamicDropdown: true },
  });
const run = (key: string, inputData: Record<string, unknown>, meta?: Record<string, unknown>) =>
  appTester(step('creates', key), { authData, inputData, ...(meta === undefined ? {} : { meta }) });

async function tasksOf(query: { list_id: string } | { board_id: string }): Promise<Task[]> {
  const tasks: Task[] = [];
  for await (const task of service.tasks.list(query)) tasks.push(task);
  return tasks;
}

describe('pickers, live', () => {
  it('tasks lists the chosen list’s tasks, and a picked one completes', async () => {
    const created = await service.tasks.create({ list_id: IDS.doing, title: 'Live: pick me' });
    const picked = (await dropdown('tasks', { board_id: IDS.board, list_id: IDS.doing })) as Array<{
      id: string;
      title: string;
    }>;
    expect(picked.map((item) => item.id)).toEqual((await tasksOf({ list_id: IDS.doing })).map((t) => t.id));
    const choice = picked.find((item) => item.title === 'Live: pick me');
    expect(choice?.id).toBe(created.id);
    await run('complete_task', { board_id: IDS.board, task_id: choice!.id });
    expect((await service.tasks.get(created.id)).completed).toBe(true);

    const onBoard = (await dropdown('tasks', { board_id: IDS.board })) as Array<{ id: string }>;
    expect(onBoard.map((item) => item.id)).toContain(created.id);
    const error = await rejection(dropdown('tasks', {}));
    expect(zapierMessage(error)).toContain('Choose a board (or a list) first');
  });

  it('contacts and companies list the team’s CRM, and a picked contact updates', async () => {
    const company = await service.companies.create({ team_id: IDS.paidTeam, name: 'Live Picker Ltd' });
    const contact = await service.contacts.create({
      team_id: IDS.paidTeam,
      name: 'Live Picker',
      contact_info: [{ type: 'email', value: 'picker@live.test' }],
    });
    const contacts = (await dropdown('contacts', { team_id: IDS.paidTeam })) as Array<
      Record<string, unknown>
    >;
    expect(contacts).toContainEqual(
      expect.objectContaining({ id: contact.id, name: 'Live Picker', email: 'picker@live.test' }),
    );
    // Without a team: every paid team's (the unpaid Garage is skipped instead of failing the list).
    expect((await dropdown('contacts', {})) as unknown[]).toContainEqual(
      expect.objectContaining({ id: contact.id }),
    );
    const companies = (await dropdown('companies', {})) as Array<Record<string, unknown>>;
    expect(companies).toContainEqual(expect.objectContaining({ id: company.id, name: 'Live Picker Ltd' }));

    await run('update_contact', { contact_id: contact.id, company_id: company.id, stage: 'Customer' });
    const stored = await service.contacts.get(contact.id);
    expect(stored).toMatchObject({ stage: 'Customer', company: { id: company.id } });
  });
});

describe('members picker and Find Board Member, live', () => {
  it('members lists the board’s members (from the task alone too); a picked one is assigned', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Live: assign a member' });
    const members = (await dropdown('members', { board_id: IDS.board })) as Array<Record<string, unknown>>;
    expect(members.map((member) => member['email']).toSorted()).toEqual([
      'ada@example.com',
      'bob@example.com',
    ]);
    expect(await dropdown('members', { task_id: task.id })).toEqual(members);
    const bob = members.find((member) => member['display_name'] === 'Bob Stone');
    await run('assign_task', { board_id: IDS.board, task_id: task.id, assignee_email: bob!['email'] });
    expect((await service.tasks.get(task.id)).assignee?.email).toBe('bob@example.com');
  });

  it('find_member finds a member by exact email or name (any case), part of one only when allowed', async () => {
    const search = (email: string, extra: Record<string, unknown> = {}) =>
      appTester(step('searches', 'find_member'), {
        authData,
        inputData: { board_id: IDS.board, email, ...extra },
      });
    const bob = { id: IDS.bob, email: 'bob@example.com', display_name: 'Bob Stone' };
    expect(await search('BOB@example.com')).toEqual([{ ...bob, match_type: 'exact' }]);
    expect(await search(' bob stone ')).toEqual([{ ...bob, match_type: 'exact' }]);
    expect(await search('Bob')).toEqual([]);
    expect(await search('Bob', { allow_partial: 'yes' })).toEqual([{ ...bob, match_type: 'partial' }]);
    expect(await search('carol@cafe.test')).toEqual([]);
  });
});

describe('task operations, live', () => {
  it('archive_task: the task leaves its list’s listing and stays readable', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Live: archive me' });
    const output = await run('archive_task', { board_id: IDS.board, task_id: task.id });
    expect(output).toMatchObject({ id: task.id });
    expect((await tasksOf({ list_id: IDS.todo })).map((t) => t.id)).not.toContain(task.id);
    expect((await service.tasks.get(task.id)).title).toBe('Live: archive me');
  });

  it('delete_task: the task is gone; deleting it again says it was not found', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Live: delete me' });
    expect(await run('delete_task', { task_id: task.id })).toEqual({ id: task.id, deleted: true });
    await expect(service.tasks.get(task.id)).rejects.toMatchObject({ name: 'NotFoundError' });
    // Another run (another Zap run, after the task is gone) acts again and is told so.
    const error = await rejection(run('delete_task', { task_id: `${task.id}`, board_id: IDS.board }));
    expect(zapierMessage(error)).toMatch(/not found|was not found/i);
  });

  it('create_task offers the chosen board’s custom fields and stores their values', async () => {
    const fields = (await appTester(
      (App.creates as unknown as Operations)['create_task']!.operation['inputFields'] as never,
      { authData, inputData: { board_id: IDS.board } },
    )) as Array<Record<string, unknown>>;
    const custom = fields.filter((field) => String(field['key']).startsWith('custom_field__'));
    // The AI-managed field is read-only, so it is not offered.
    expect(custom.map((field) => field['key'])).toEqual([
      `custom_field__${IDS.priority}`,
      `custom_field__${IDS.estimate}`,
    ]);
    const meta = {
      inputFields: Object.fromEntries(custom.map((field) => [field['key'], field['meta']])),
    };
    const inputs = {
      board_id: IDS.board,
      list_id: IDS.todo,
      title: 'Live: with fields',
      [`custom_field__${IDS.priority}`]: [IDS.priorityHigh],
      [`custom_field__${IDS.estimate}`]: '3',
    };
    const output = (await run('create_task', inputs, meta)) as Task;
    const stored = await service.tasks.get(output.id);
    expect(stored.custom_fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field_id: IDS.priority, value: [IDS.priorityHigh] }),
        expect.objectContaining({ field_id: IDS.estimate, value: 3 }),
      ]),
    );
    // Mapped by the option's label, without the field types: the board is read first, same result.
    const mapped = (await run('create_task', {
      ...inputs,
      [`custom_field__${IDS.priority}`]: 'high',
    })) as Task;
    expect((await service.tasks.get(mapped.id)).custom_fields).toContainEqual(
      expect.objectContaining({ field_id: IDS.priority, value: [IDS.priorityHigh] }),
    );
    // A value the board refuses creates no task.
    const before = (await tasksOf({ list_id: IDS.todo })).length;
    const error = await rejection(
      run('create_task', { ...inputs, title: 'Live: refused', [`custom_field__${IDS.priority}`]: 'urgent' }),
    );
    expect(zapierMessage(error)).toContain('urgent');
    expect(await tasksOf({ list_id: IDS.todo })).toHaveLength(before);
  });
});

describe('task triggers, live', () => {
  const fromPath = (path: string) => (request: ReceivedRequest) => request.path.endsWith(path);
  async function subscribe(key: string, path: string, inputData: Record<string, unknown>) {
    return appTester(trigger(key, 'performSubscribe'), {
      authData,
      inputData,
      targetUrl: `${receiver.url}${path}`,
    });
  }
  /** Every delivery to `path` about `taskId`, after the service had time to send what it would. */
  async function deliveriesFor(path: string, taskId: string, atLeast: number): Promise<ReceivedRequest[]> {
    const about = (request: ReceivedRequest) => {
      const json = request.json as { id?: string; data?: { task?: { id?: string } } };
      return fromPath(path)(request) && (json.data?.task?.id ?? json.id) === taskId;
    };
    for (let turn = 0; turn < 100 && receiver.received.filter(about).length < atLeast; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    return receiver.received.filter(about);
  }

  it('task_updated: a colour change on the board triggers with the task; off, nothing more; off again after the hook is gone', async () => {
    const inputData = { board_id: IDS.board };
    const subscribeData = await subscribe('task_updated', '/updated', inputData);
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Live: colour me' });
    await service.tasks.update(task.id, { shade: 'red' });
    const [delivery] = await deliveriesFor('/updated', task.id, 1);
    const [output] = await appTester(trigger('task_updated', 'perform'), {
      authData,
      inputData,
      subscribeData,
      ...deliveryBundle(delivery!),
    });
    expect(output).toMatchObject({ task_id: task.id, shade: 'red', board_id: IDS.board });
    expect(output.id).toBe(delivery!.headers['x-service-event-id']);

    // A change on another board reaches the subscription (v2 filters by mailbox scope only) and triggers nothing.
    const other = await service.tasks.create({ list_id: IDS.leads, title: 'Live: other board' });
    await service.tasks.update(other.id, { shade: 'blue' });
    const [elsewhere] = await deliveriesFor('/updated', other.id, 1);
    expect(
      await appTester(trigger('task_updated', 'perform'), {
        authData,
        inputData,
        subscribeData,
        ...deliveryBundle(elsewhere!),
      }),
    ).toEqual([]);

    await appTester(trigger('task_updated', 'performUnsubscribe'), { authData, subscribeData });
    await expect(service.webhooks.get(subscribeData.id)).rejects.toMatchObject({ name: 'NotFoundError' });
    await service.tasks.update(task.id, { shade: 'green' });
    expect(await deliveriesFor('/updated', task.id, 2)).toHaveLength(1);
    // Turning the Zap off again (its hook already gone) succeeds.
    await appTester(trigger('task_updated', 'performUnsubscribe'), { authData, subscribeData });
    // Turning it on again gives a live subscription.
    const again = await subscribe('task_updated', '/updated', inputData);
    expect(again.id).not.toBe(subscribeData.id);
    expect((await service.webhooks.get(again.id)).status).toBe('active');
    await appTester(trigger('task_updated', 'performUnsubscribe'), { authData, subscribeData: again });
  });

  it('task_updated says exactly what changed: the colour, then a custom field set, then changed; samples have the same keys', async () => {
    const inputData = { board_id: IDS.board };
    const subscribeData = await subscribe('task_updated', '/changes', inputData);
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Live: what changed' });
    const perform = async (delivery: ReceivedRequest) =>
      (
        await appTester(trigger('task_updated', 'perform'), {
          authData,
          inputData,
          subscribeData,
          ...deliveryBundle(delivery),
        })
      )[0] as Record<string, unknown>;
    const unchanged = {
      previous_shade: null,
      previous_custom_fields: [],
      previous_assignee_name: null,
      previous_assignee_email: null,
      previous_thread_ids: null,
    };
    const outputs: Array<Record<string, unknown>> = [];
    const patches = [
      { shade: 'red' as const },
      { custom_fields: [{ field_id: IDS.priority, value: [IDS.priorityHigh] }] },
      { custom_fields: [{ field_id: IDS.priority, value: [IDS.priorityLow] }] },
    ];
    for (const [index, patch] of patches.entries()) {
      await service.tasks.update(task.id, patch);
      const deliveries = await deliveriesFor('/changes', task.id, index + 1);
      expect(deliveries).toHaveLength(index + 1);
      outputs.push(await perform(deliveries[index]!));
    }
    expect(outputs[0]).toMatchObject({
      ...unchanged,
      shade: 'red',
      changed_fields: ['Color'],
      previous_shade: 'none',
    });
    expect(outputs[1]).toMatchObject({
      ...unchanged,
      changed_fields: ['Priority'],
      custom_fields: [
        { field_id: IDS.priority, value: [IDS.priorityHigh], name: 'Priority', labels: ['High'] },
      ],
      previous_custom_fields: [{ field_id: IDS.priority, value: null, name: 'Priority', labels: [] }],
    });
    expect(outputs[2]).toMatchObject({
      ...unchanged,
      changed_fields: ['Priority'],
      custom_fields: [
        { field_id: IDS.priority, value: [IDS.priorityLow], name: 'Priority', labels: ['Low'] },
      ],
      previous_custom_fields: [
        { field_id: IDS.priority, value: [IDS.priorityHigh], name: 'Priority', labels: ['High'] },
      ],
    });

    // The samples a Zap builder maps from (live and static) have exactly the keys of a live delivery.
    const keys = Object.keys(outputs[0]!).sort();
    const samples = (await appTester(trigger('task_updated', 'performList'), {
      authData,
      inputData,
    })) as Array<Record<string, unknown>>;
    expect(samples.map((sample) => sample['task_id'])).toContain(task.id);
    for (const sample of [...samples, staticSample('task_updated')])
      expect(Object.keys(sample).sort()).toEqual(keys);
    await appTester(trigger('task_updated', 'performUnsubscribe'), { authData, subscribeData });
  });

  it('task_uncompleted: Mark Task Incomplete run by a Zap step triggers it', async () => {
    const inputData = { board_id: IDS.board };
    const subscribeData = await subscribe('task_uncompleted', '/uncompleted', inputData);
    const task = await service.tasks.create({ list_id: IDS.doing, title: 'Live: undo me' });
    await service.tasks.complete(task.id);
    await run('mark_task_incomplete', { task_id: task.id });
    expect((await service.tasks.get(task.id)).completed).toBe(false);
    const [delivery] = await deliveriesFor('/uncompleted', task.id, 1);
    const [output] = await appTester(trigger('task_uncompleted', 'perform'), {
      authData,
      inputData,
      subscribeData,
      ...deliveryBundle(delivery!),
    });
    expect(output).toMatchObject({ task_id: task.id, completed: false });
    const samples = (await appTester(trigger('task_uncompleted', 'performList'), {
      authData,
      inputData,
    })) as Task[];
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.length).toBeLessThanOrEqual(10);
    const keys = Object.keys(output).sort();
    for (const sample of [...samples, staticSample('task_uncompleted')]) {
      expect(Object.keys(sample).sort()).toEqual(keys);
    }
    await appTester(trigger('task_uncompleted', 'performUnsubscribe'), { authData, subscribeData });
  });

  it('task_assigned with an assignee and task_completed with a list trigger only for those', async () => {
    const assigned = await subscribe('task_assigned', '/assigned', {
      board_id: IDS.board,
      assignee_email: 'bob@example.com',
    });
    const completed = await subscribe('task_completed', '/completed', {
      board_id: IDS.board,
      list_id: IDS.done,
    });
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Live: filtered' });
    await run('assign_task', { task_id: task.id, assignee_email: 'ada@example.com' });
    await run('assign_task', { task_id: task.id, assignee_email: 'bob@example.com' });
    await service.tasks.complete(task.id);
    const done = await service.tasks.create({ list_id: IDS.done, title: 'Live: done here' });
    await service.tasks.complete(done.id);

    const perform = async (key: string, inputData: Record<string, unknown>, deliveries: ReceivedRequest[]) =>
      (
        await Promise.all(
          deliveries.map((delivery) =>
            appTester(trigger(key, 'perform'), { authData, inputData, ...deliveryBundle(delivery) }),
          ),
        )
      ).flat() as Array<Record<string, unknown>>;
    const assignments = await perform(
      'task_assigned',
      { board_id: IDS.board, assignee_email: 'bob@example.com' },
      await deliveriesFor('/assigned', task.id, 2),
    );
    expect(assignments.map((output) => output['assignedToEmail'])).toEqual(['bob@example.com']);
    const completions = await perform('task_completed', { board_id: IDS.board, list_id: IDS.done }, [
      ...(await deliveriesFor('/completed', task.id, 1)),
      ...(await deliveriesFor('/completed', done.id, 1)),
    ]);
    expect(completions.map((output) => output['task_id'])).toEqual([done.id]);

    await appTester(trigger('task_assigned', 'performUnsubscribe'), { authData, subscribeData: assigned });
    await appTester(trigger('task_completed', 'performUnsubscribe'), { authData, subscribeData: completed });
  });
});
