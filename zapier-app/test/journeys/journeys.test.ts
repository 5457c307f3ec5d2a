/**
 * Whole Zaps, as a Zap builder runs them: each step through appTester against a live reference server,
 * run several times, and after every run the service's own state is read (never the step's output) to
 * check what the run did. Every error message a journey provokes is checked to hold no credential.
 */
import type { ThreadworkClient } from '@threadwork/shared';
import { DEFAULT_SCOPES } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import type { ReceivedRequest } from '../../../test/e2e/test/helpers/receiver.ts';
import { operationOf } from '../creates/support.ts';
import { appTester, type Operation, sessionPerform, zapierMessage } from '../helpers/auth.ts';
import {
  CREDENTIALS,
  deliveryBundle,
  IDS,
  seededLegacyClient,
  startConnectedServer,
  startReceiver,
  THREADS,
} from '../helpers/live.ts';
import { triggerOperation } from '../helpers/triggers.ts';

let server: LiveServer;
let authData: Record<string, string>;
let service: ThreadworkClient;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  ({ server, authData, service } = await startConnectedServer({ testControl: true }));
  receiver = await startReceiver();
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

type Auth = Record<string, string>;

/** One run of an action step. */
const step = (key: string, inputData: Record<string, unknown>, auth: Auth = authData) =>
  appTester(operationOf('creates', key).perform as Operation, { authData: auth, inputData });

const hook = triggerOperation;

/** Every credential the journeys use: none may appear in a message. */
function credentialsOf(auth: Auth): string[] {
  return [
    auth['api_key'],
    auth['api_secret'],
    auth['sessionKey'],
    CREDENTIALS.full,
    CREDENTIALS.legacy.apiKey,
    CREDENTIALS.legacy.apiSecret,
  ].filter((value): value is string => typeof value === 'string' && value !== '');
}

/** Runs a step that must fail; returns its message, checked to hold no credential and no jargon. */
async function failing(key: string, inputData: Record<string, unknown>, auth: Auth = authData) {
  const error = await step(key, inputData, auth).then(
    () => {
      throw new Error(`${key} succeeded`);
    },
    (caught: unknown) => caught,
  );
  const message = zapierMessage(error);
  for (const secret of credentialsOf(auth)) expect(message).not.toContain(secret);
  expect(message).not.toMatch(/api_secret=|api_key=|Idempotency-Key|\bISO\b/);
  return message;
}

/**
 * A connection (the app's own session exchange) with a legacy key created now, with `scopes` if given, by
 * ada's own session (her seeded key holds every scope, so it may grant the opt-in "Send email").
 */
async function connectionWithNewKey(name: string, scopes?: string[]): Promise<Auth> {
  return (await newKeyConnection(name, scopes)).connection;
}

/** As above, with the key's id (to revoke it). */
async function newKeyConnection(
  name: string,
  scopes?: string[],
): Promise<{ connection: Auth; keyId: string }> {
  const created = await fetch(`${server.v2BaseUrl}/api-keys`, {
    method: 'POST',
    headers: { 'x-access-token': authData['sessionKey'] ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ name, type: 'legacy', ...(scopes === undefined ? {} : { scopes }) }),
  });
  expect(created.status).toBe(200);
  const { data } = (await created.json()) as { data: { id: string; api_key: string; api_secret: string } };
  const credentials = {
    origin: server.origin,
    email: CREDENTIALS.legacy.email,
    api_key: data.api_key,
    api_secret: data.api_secret,
    api_key_name: name,
  };
  const { sessionKey } = await appTester(sessionPerform, { authData: credentials });
  return { connection: { ...credentials, sessionKey }, keyId: data.id };
}

/** A message from outside arriving in ada's mailbox (on a thread, or a new one). */
async function inbound(
  subject: string,
  threadId?: string,
): Promise<{ thread_id: string; message_id: string }> {
  const response = await fetch(`${server.origin}/_control/inbound-message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      mailbox: 'ada@example.com',
      ...(threadId === undefined ? {} : { thread_id: threadId }),
      message: { from: { email: 'bob@stone.test', name: 'Bob' }, subject, body_text: subject },
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { thread_id: string; message_id: string };
}

/** The tasks of To do with this title, as the service holds them. */
const titled = async (title: string) => {
  const found = [];
  for await (const task of service.tasks.list({ list_id: IDS.todo }))
    if (task.title === title) found.push(task);
  return found;
};

/** A Zap on an instant trigger: turning it on (subscribe) and off (unsubscribe), as Zapier does. */
function zapOn(key: string, inputData: Record<string, unknown>, path: string) {
  return {
    on: () =>
      appTester(hook(key, 'performSubscribe'), { authData, inputData, targetUrl: `${receiver.url}${path}` }),
    off: (subscribeData: unknown) =>
      appTester(hook(key, 'performUnsubscribe'), { authData, inputData, subscribeData }),
  };
}

/** The messages ada sent on a thread, as the service holds them. */
async function sentOn(threadId: string) {
  const thread = await service.emailThreads.get(threadId, { include: 'messages' });
  return (thread.messages ?? []).filter((message) => message.labels.includes('SENT'));
}

describe('journeys: a step run again acts again', () => {
  it('complete → un-complete → complete, three times over: the task follows every run', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: toggle' });
    for (let round = 0; round < 3; round++) {
      await step('complete_task', { task_id: task.id });
      expect((await service.tasks.get(task.id)).completed).toBe(true);
      await step('mark_task_incomplete', { task_id: task.id });
      expect((await service.tasks.get(task.id)).completed).toBe(false);
    }
    await step('complete_task', { task_id: task.id });
    expect((await service.tasks.get(task.id)).completed).toBe(true);
  });

  it('move there and back, twice: each move lands', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: move' });
    for (const list of [IDS.doing, IDS.todo, IDS.doing, IDS.todo]) {
      await step('move_task', { task_id: task.id, board_id: IDS.board, list_id: list });
      expect((await service.tasks.get(task.id)).list_id).toBe(list);
    }
  });

  it('assign, unassign, assign the same member again; then switch between two members', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: assign' });
    const assignee = async () => (await service.tasks.get(task.id)).assignee?.email ?? null;
    for (let round = 0; round < 2; round++) {
      await step('assign_task', { task_id: task.id, assignee_email: 'bob@example.com' });
      expect(await assignee()).toBe('bob@example.com');
      await step('unassign_task', { task_id: task.id });
      expect(await assignee()).toBeNull();
    }
    for (const email of ['ada@example.com', 'bob@example.com', 'ada@example.com']) {
      await step('assign_task', { task_id: task.id, assignee_email: email });
      expect(await assignee()).toBe(email);
    }
  });

  it('color red, blue, red, none, red: every run repaints', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: color' });
    for (const shade of ['red', 'blue', 'red', 'none', 'red']) {
      await step('set_task_color', { task_id: task.id, shade });
      expect((await service.tasks.get(task.id)).shade).toBe(shade);
    }
  });

  it('the same reply to two new messages sends two replies', async () => {
    const first = await inbound('Journey: can you confirm?');
    await step('reply_to_thread', { thread_id: first.thread_id, body: 'Thanks, noted!' });
    expect(await sentOn(first.thread_id)).toHaveLength(1);
    await inbound('Re: Journey: can you confirm?', first.thread_id);
    await step('reply_to_thread', { thread_id: first.thread_id, body: 'Thanks, noted!' });
    expect(await sentOn(first.thread_id)).toHaveLength(2);
  });
});

describe('journeys: Only Once Per', () => {
  it('a Zap run replayed three times creates one task; the next trigger item creates the next', async () => {
    const inputs = { list_id: IDS.todo, title: 'Journey: once per event' };
    for (let run = 0; run < 3; run++) {
      await step('create_task', { ...inputs, dedupe_key: 'evt_journey_1' });
      expect(await titled(inputs.title)).toHaveLength(1);
    }
    await step('create_task', { ...inputs, dedupe_key: 'evt_journey_2' });
    expect(await titled(inputs.title)).toHaveLength(2);
    // Without it, every run acts.
    await step('create_task', inputs);
    await step('create_task', inputs);
    expect(await titled(inputs.title)).toHaveLength(4);
  });

  it('a failed step, fixed and retried with the same value, acts (its failure is not replayed), then once', async () => {
    const title = 'Journey: fixed after a failure';
    const message = await failing('create_task', {
      list_id: 'lst_missing',
      title,
      dedupe_key: 'evt_journey_3',
    });
    expect(message).toBe(
      'List `lst_missing` was not found, or this account cannot see it: pick it again from List.',
    );
    expect(await titled(title)).toHaveLength(0);
    for (let run = 0; run < 2; run++) {
      await step('create_task', { list_id: IDS.todo, title, dedupe_key: 'evt_journey_3' });
      expect(await titled(title)).toHaveLength(1);
    }
  });

  it('the same reply to a replayed run of one message sends once', async () => {
    const message = await inbound('Journey: replayed run');
    for (let run = 0; run < 3; run++) {
      await step('reply_to_thread', {
        thread_id: message.thread_id,
        body: 'Got it',
        dedupe_key: message.message_id,
      });
      expect(await sentOn(message.thread_id)).toHaveLength(1);
    }
  });
});

describe('journeys: errors a Zap builder can act on', () => {
  it('a list of another board than the chosen one is refused by name, and nothing is created', async () => {
    const title = 'Journey: wrong board';
    const message = await failing('create_task', { board_id: IDS.salesBoard, list_id: IDS.todo, title });
    expect(message).toContain(
      `List: \`${IDS.todo}\` is not a list of the chosen Board \`${IDS.salesBoard}\``,
    );
    expect(await titled(title)).toEqual([]);
  });

  it('a date the service cannot read is named by its label, in plain words', async () => {
    const message = await failing('create_task', {
      list_id: IDS.todo,
      title: 'Journey: when',
      due_at: 'soonish',
    });
    expect(message).toBe("Due Date: use a date like 2026-03-01 or 'next Friday 5pm'");
  });

  it('a wrong service URL says what to fix and shows no credential', async () => {
    const wrong = { ...authData, origin: new URL(receiver.url).origin };
    const error = await appTester(sessionPerform, { authData: wrong }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const message = zapierMessage(error);
    expect(message).toMatch(/is not the service.*Check the Service URL/);
    for (const secret of credentialsOf(authData)) expect(message).not.toContain(secret);
  });
});

describe('journeys: Send Email', () => {
  it('without "Send email" on the key: the error says how to get such a key, and nothing is sent', async () => {
    const connection = await connectionWithNewKey('Zapier without send');
    const before = await sentOn(THREADS.lunch.id);
    const message = await failing(
      'send_email',
      { to: 'carol@cafe.test', subject: 'Journey: no scope', body: 'Hi', thread_id: THREADS.lunch.id },
      connection,
    );
    expect(message).toContain(
      `Create a key with "Send email" ticked in your account's API keys at ${server.origin}/keys (or in the extension's API tab)`,
    );
    expect(message).not.toMatch(/console|yourself/i);
    expect(message).toMatch(/reconnect this Zapier connection with the new key/);
    expect(await sentOn(THREADS.lunch.id)).toHaveLength(before.length);
  });

  it('with a key that holds "Send email": each run sends, Only Once Per sends once', async () => {
    const connection = await connectionWithNewKey('Zapier with send', [...DEFAULT_SCOPES, 'email.send']);
    const email = {
      to: 'carol@cafe.test',
      subject: 'Journey: sent',
      body: 'Hi',
      thread_id: THREADS.lunch.id,
    };
    const before = (await sentOn(THREADS.lunch.id)).length;
    await step('send_email', email, connection);
    expect(await sentOn(THREADS.lunch.id)).toHaveLength(before + 1);
    await step('send_email', email, connection);
    expect(await sentOn(THREADS.lunch.id)).toHaveLength(before + 2);
    await step('send_email', { ...email, dedupe_key: 'evt_send_1' }, connection);
    await step('send_email', { ...email, dedupe_key: 'evt_send_1' }, connection);
    expect(await sentOn(THREADS.lunch.id)).toHaveLength(before + 3);
  });
});

describe('journeys: a key revoked while its Zaps run', () => {
  it('a step asks Zapier to renew the session, the renewal says the key may have been revoked, and the Zap turns off', async () => {
    const { connection, keyId } = await newKeyConnection('Zapier soon revoked');
    const subscribeData = await appTester(hook('new_task_in_list', 'performSubscribe'), {
      authData: connection,
      inputData: { list_id: IDS.todo },
      targetUrl: `${receiver.url}/journey-revoked`,
    });
    const revoked = await fetch(`${server.v2BaseUrl}/api-keys/${keyId}`, {
      method: 'DELETE',
      headers: { 'x-access-token': authData['sessionKey'] ?? '' },
    });
    expect(revoked.status).toBe(200);
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: after the revoke' });
    // The step's token was minted from the revoked key: Zapier is asked to renew it…
    const refused = await step('complete_task', { task_id: task.id }, connection).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(refused?.name).toBe('RefreshAuthError');
    expect((await service.tasks.get(task.id)).completed).toBe(false);
    // …and the renewal is what the user reads.
    const renewal = await appTester(sessionPerform, { authData: connection }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const message = zapierMessage(renewal);
    expect(message).toContain(
      "The service did not accept this connection's API key: this key may have been revoked: reconnect",
    );
    expect(message).toContain(`Create one in your account's API keys at ${server.origin}/keys`);
    for (const secret of credentialsOf(connection)) expect(message).not.toContain(secret);
    // Turning the Zap off still succeeds: the service stopped the key's hooks when it was revoked.
    expect(
      await appTester(hook('new_task_in_list', 'performUnsubscribe'), {
        authData: connection,
        inputData: { list_id: IDS.todo },
        subscribeData,
      }),
    ).toEqual({});
  });
});

describe('journeys: turning a Zap off and on', () => {
  it('a v1 hook deleted in the service: turning off succeeds, turning on again delivers', async () => {
    const zap = zapOn('new_task_in_list', { board_id: IDS.board, list_id: IDS.todo }, '/journey-v1');
    const first = await zap.on();
    await seededLegacyClient(server.origin).unsubscribe('items', first.id);
    expect(await zap.off(first)).toEqual({});
    const second = await zap.on();
    expect(second.id).not.toBe(first.id);
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: hooked again' });
    const delivery = await receiver.waitFor(
      (request) => request.path.endsWith('/journey-v1') && (request.json as { id?: string }).id === task.id,
    );
    const [output] = await appTester(hook('new_task_in_list', 'perform'), {
      authData,
      ...deliveryBundle(delivery),
    });
    expect(output).toMatchObject({ task_id: task.id });
    await zap.off(second);
  });

  it('the reply webhook deleted in the service: off succeeds, on again gives a live subscription', async () => {
    const inputData = { scope: 'all' };
    const zap = zapOn('new_thread_reply', inputData, '/journey-reply');
    const first = await zap.on();
    await service.webhooks.delete(first.id);
    expect(await zap.off(first)).toEqual({});
    // Off twice (Zapier may retry a turn-off): still fine.
    expect(await zap.off(first)).toEqual({});
    const second = await zap.on();
    expect(second.id).not.toBe(first.id);
    expect((await service.webhooks.get(second.id)).status).toBe('active');
    const arrived = await inbound('Journey: after turning on again');
    const delivery = await receiver.waitFor(
      (request) =>
        request.path.endsWith('/journey-reply') &&
        (request.json as { data?: { message?: { id?: string } } }).data?.message?.id === arrived.message_id,
    );
    const [reply] = await appTester(hook('new_thread_reply', 'perform'), {
      authData,
      inputData,
      subscribeData: second,
      ...deliveryBundle(delivery),
    });
    expect(reply).toMatchObject({ message_id: arrived.message_id, from_email: 'bob@stone.test' });
    await zap.off(second);
  });
});

describe('journeys: a Filter on what changed', () => {
  /**
   * The Zap "Task Updated (Roadmap) → Filter: only continue if Changed Fields (Text) Contains Color → Set Task
   * Color (red)", run as Zapier runs it: each delivery to its hook is one run. Zapier's Filter reads a list as
   * its items joined by commas.
   */
  const path = '/journey-filter';
  const inputData = { board_id: IDS.board };
  const handled = new Set<ReceivedRequest>();
  let subscribeData: unknown;
  /** A change on another board: the Zap's hook hears of it after anything recorded before, and ignores it. */
  let marker: { id: string };
  let markerTurn = 0;

  beforeAll(async () => {
    subscribeData = await zapOn('task_updated', inputData, path).on();
    marker = await service.tasks.create({ list_id: IDS.leads, title: 'Journey: marker' });
  });
  afterAll(async () => {
    await zapOn('task_updated', inputData, path).off(subscribeData);
  });

  /** Runs the Zap on every delivery until none comes (at most 6 rounds: more is a Zap feeding itself). */
  async function runZap(taskId: string): Promise<{ runs: number; acted: number }> {
    let runs = 0;
    let acted = 0;
    for (let round = 0; round < 6; round++) {
      const shade = markerTurn++ % 2 === 0 ? 'blue' : 'green';
      await service.tasks.update(marker.id, { shade });
      await receiver.waitFor(
        (request) =>
          request.path.endsWith(path) &&
          (request.json as { data?: { task?: { id?: string; shade?: string } } }).data?.task?.id ===
            marker.id &&
          !handled.has(request),
      );
      // Deliveries go out concurrently: a moment for one recorded just before the marker's.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const fresh = receiver.received.filter(
        (request) => request.path.endsWith(path) && !handled.has(request),
      );
      for (const request of fresh) handled.add(request);
      const ours = fresh.filter(
        (request) => (request.json as { data?: { task?: { id?: string } } }).data?.task?.id === taskId,
      );
      if (ours.length === 0) return { runs, acted };
      for (const delivery of ours) {
        runs++;
        const [item] = (await appTester(hook('task_updated', 'perform'), {
          authData,
          inputData,
          subscribeData,
          ...deliveryBundle(delivery),
        })) as Array<Record<string, unknown>>;
        if (!String(item!['changed_fields']).includes('Color')) continue;
        await step('set_task_color', { task_id: item!['task_id'], shade: 'red' });
        acted++;
        expect((await service.tasks.get(taskId)).shade).toBe('red');
      }
    }
    throw new Error('the Zap keeps triggering itself');
  }

  it('a custom-field change stops at the Filter; a colour change is repainted once, and the Zap stops', async () => {
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: keep me red' });
    await service.tasks.update(task.id, {
      custom_fields: [{ field_id: IDS.priority, value: [IDS.priorityHigh] }],
    });
    expect(await runZap(task.id)).toEqual({ runs: 1, acted: 0 });
    expect(await service.tasks.get(task.id)).toMatchObject({ shade: 'none' });

    // Someone paints it, twice: each time the Zap repaints it red (one run), hears its own change (one more
    // run, which changes nothing, so no event), and stops.
    for (const shade of ['blue', 'green'] as const) {
      await service.tasks.update(task.id, { shade });
      expect(await runZap(task.id)).toEqual({ runs: 2, acted: 2 });
      expect(await service.tasks.get(task.id)).toMatchObject({
        shade: 'red',
        custom_fields: [{ field_id: IDS.priority, value: [IDS.priorityHigh] }],
      });
    }

    // A priority change on the red task stops at the Filter again.
    await service.tasks.update(task.id, {
      custom_fields: [{ field_id: IDS.priority, value: [IDS.priorityLow] }],
    });
    expect(await runZap(task.id)).toEqual({ runs: 1, acted: 0 });
    expect((await service.tasks.get(task.id)).shade).toBe('red');
  });
});

describe('journeys: every picker', () => {
  /** The items a hidden dropdown offers the Zap builder, given the step's other inputs. */
  const picker = (key: string, inputData: Record<string, unknown>) =>
    appTester(hook(key, 'perform'), {
      authData,
      inputData,
      meta: { page: 0, isFillingDynamicDropdown: true },
    }) as Promise<Array<Record<string, unknown>>>;
  /** The offered item whose `field` is `value`; the journey fails when the dropdown does not offer it. */
  async function pick(key: string, inputData: Record<string, unknown>, field: string, value: unknown) {
    const item = (await picker(key, inputData)).find((candidate) => candidate[field] === value);
    expect(item, `${key} offers ${field} ${String(value)}`).toBeDefined();
    return item!;
  }

  it('a task picked from its board: complete, archive; the archived task leaves the dropdown', async () => {
    const created = await service.tasks.create({ list_id: IDS.doing, title: 'Journey: picked task' });
    const picked = await pick('tasks', { board_id: IDS.board }, 'title', 'Journey: picked task');
    for (let run = 0; run < 2; run++) {
      await step('complete_task', { board_id: IDS.board, task_id: picked['id'] });
      expect((await service.tasks.get(created.id)).completed).toBe(true);
      await step('mark_task_incomplete', { board_id: IDS.board, task_id: picked['id'] });
      expect((await service.tasks.get(created.id)).completed).toBe(false);
    }
    await step('archive_task', { board_id: IDS.board, task_id: picked['id'] });
    const after = await picker('tasks', { board_id: IDS.board, list_id: IDS.doing });
    expect(after.map((item) => item['id'])).not.toContain(created.id);
  });

  it('a member picked for the task: assign one, then the other, each run lands', async () => {
    const created = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: picked member' });
    for (const name of ['Bob Stone', 'Ada Lovelace', 'Bob Stone']) {
      const member = await pick('members', { task_id: created.id }, 'display_name', name);
      await step('assign_task', { task_id: created.id, assignee_email: member['email'] });
      expect((await service.tasks.get(created.id)).assignee?.email).toBe(member['email']);
    }
  });

  it('a contact and a company picked from the team: link them, change the contact twice', async () => {
    const company = await service.companies.create({ team_id: IDS.paidTeam, name: 'Journey Picker Co' });
    const contact = await service.contacts.create({ team_id: IDS.paidTeam, name: 'Journey Picker' });
    const pickedCompany = await pick('companies', { team_id: IDS.paidTeam }, 'name', 'Journey Picker Co');
    const pickedContact = await pick('contacts', {}, 'name', 'Journey Picker');
    for (const stage of ['Lead', 'Customer']) {
      await step('update_contact', {
        contact_id: pickedContact['id'],
        company_id: pickedCompany['id'],
        stage,
      });
      expect(await service.contacts.get(contact.id)).toMatchObject({ stage, company: { id: company.id } });
    }
  });

  it('a task picked to place another below it: the new task lands right under it', async () => {
    const anchor = await service.tasks.create({ list_id: IDS.done, title: 'Journey: anchor' });
    const picked = await pick(
      'tasks',
      { board_id: IDS.board, list_id: IDS.done },
      'title',
      'Journey: anchor',
    );
    await step('create_task', {
      board_id: IDS.board,
      list_id: IDS.done,
      title: 'Journey: below the anchor',
      after_task_id: picked['id'],
    });
    const titles: string[] = [];
    for await (const task of service.tasks.list({ list_id: IDS.done })) titles.push(task.title);
    expect(titles.indexOf('Journey: below the anchor')).toBe(titles.indexOf(anchor.title) + 1);
  });
});

describe('journeys: what a key may do, and revoking it', () => {
  const READ_ONLY = ['boards.read', 'lists.read', 'tasks.read', 'crm.read'];

  it('a read-only key: every write step is refused naming the scope, and nothing changes', async () => {
    const connection = await connectionWithNewKey('Zapier read-only', READ_ONLY);
    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: read-only' });
    await service.tasks.complete(task.id);
    // Assigned, so that unassigning has someone to take off (unassigning nobody changes nothing).
    await seededLegacyClient(server.origin).assignTask(task.id, 'ada@example.com');
    const before = await service.tasks.get(task.id);
    // v1 serves mark incomplete, assign and unassign; v2 the others. Both hold the key to its scopes.
    const writes: [string, Record<string, unknown>][] = [
      ['mark_task_incomplete', { task_id: task.id }],
      ['assign_task', { task_id: task.id, assignee_email: 'bob@example.com' }],
      ['unassign_task', { task_id: task.id }],
      ['complete_task', { task_id: task.id }],
      ['move_task', { task_id: task.id, board_id: IDS.board, list_id: IDS.doing }],
      ['set_task_color', { task_id: task.id, shade: 'red' }],
      ['create_task', { list_id: IDS.todo, title: 'Journey: never made' }],
    ];
    for (const [key, inputData] of writes) {
      const message = await failing(key, inputData, connection);
      expect([key, message]).toEqual([
        key,
        expect.stringContaining('lacks the "Create and change tasks" permission (tasks.write)'),
      ]);
    }
    expect(await service.tasks.get(task.id)).toEqual(before);
    expect(await titled('Journey: never made')).toEqual([]);
    // Turning a Zap on subscribes a hook: that needs webhooks.manage.
    const on = await appTester(hook('new_task_in_list', 'performSubscribe'), {
      authData: connection,
      inputData: { board_id: IDS.board, list_id: IDS.todo },
      targetUrl: `${receiver.url}/journey-read-only`,
    }).then(
      () => 'subscribed',
      (error: unknown) => zapierMessage(error),
    );
    expect(on).toContain('lacks the "Manage webhooks" permission (webhooks.manage)');
  });

  it("revoking the Zap's key stops its v1 hook and its reply webhook; the other connection's Zap goes on", async () => {
    const connection = await connectionWithNewKey('Zapier revoked');
    const turnOn = (key: string, inputData: Record<string, unknown>, path: string, auth: Auth) =>
      appTester(hook(key, 'performSubscribe'), {
        authData: auth,
        inputData,
        targetUrl: `${receiver.url}${path}`,
      });
    const list = { board_id: IDS.board, list_id: IDS.todo };
    const ofKey = await turnOn('new_task_in_list', list, '/journey-revoked-v1', connection);
    const replies = await turnOn('new_thread_reply', { scope: 'all' }, '/journey-revoked-reply', connection);
    const other = await turnOn('new_task_in_list', list, '/journey-kept-v1', authData);
    const at = (path: string) => receiver.received.filter((request) => request.path.endsWith(path));

    const keys = (await service.apiKeys.list({ limit: 200 })).data;
    const revokedId = keys.find((key) => key.name === 'Zapier revoked')!.id;
    expect(keys.find((key) => key.id === revokedId)?.subscriptions).toEqual({ webhooks: 1, hooks: 1 });
    expect(await service.apiKeys.delete(revokedId)).toEqual({
      id: revokedId,
      deleted: true,
      webhooks_disabled: 1,
      hooks_deleted: 1,
    });
    expect((await service.webhooks.get(replies.id)).disabled_reason).toBe('key_revoked');

    const task = await service.tasks.create({ list_id: IDS.todo, title: 'Journey: after the revoke' });
    await inbound('Journey: a reply after the revoke');
    await receiver.waitFor(
      (request) =>
        request.path.endsWith('/journey-kept-v1') && (request.json as { id?: string }).id === task.id,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([at('/journey-revoked-v1').length, at('/journey-revoked-reply').length]).toEqual([0, 0]);
    expect(ofKey.id).toBeTruthy();
    await appTester(hook('new_task_in_list', 'performUnsubscribe'), {
      authData,
      inputData: list,
      subscribeData: other,
    });
  });
});
