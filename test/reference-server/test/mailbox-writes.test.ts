// Mailbox writes over HTTP, through the typed client where it has the operation, so the client and
// the server are checked against each other: read state, labels, snooze, reply, send, drafts, the
// 409s of an unusable mailbox, and the inbound test-control endpoint.
import {
  InsufficientScopeError,
  MailboxNotConnectedError,
  MailboxReauthRequiredError,
  NotFoundError,
  RequestValidationError,
  type ThreadworkClient,
  ValidationError,
} from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './helpers/fixtures.ts';
import { MAILBOX_NOW, MAILBOX_SECRETS, THREADS } from './helpers/mailbox-fixtures.ts';
import { mailboxWritesSeed, WRITE_SECRETS, WRITE_THREADS } from './helpers/mailbox-writes-fixtures.ts';
import {
  failure,
  inboundMessage,
  readAnswer,
  startTestServer,
  type TestServer,
  typedClient,
} from './helpers/server.ts';

let server: TestServer;
let clock = MAILBOX_NOW;
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  server = await startTestServer({ seed: mailboxWritesSeed, testControl: true, now: () => clock });
});
afterAll(() => server.close());

const clientFor = (apiKey: string) => typedClient(server, { apiKey });
/** ada with every default scope (no opt-in ones). */
const ada = () => clientFor(SECRETS.adaFull);
/** ada with every scope, opt-in ones included. */
const adaAll = () => clientFor(WRITE_SECRETS.adaAll);

const deliver = (body: unknown) => inboundMessage(server, body);

const messagesOf = async (threadId: string) =>
  (await ada().emailThreads.get(threadId, { include: 'messages' })).messages ?? [];
const search = async (q: string) => {
  const ids: string[] = [];
  for await (const thread of ada().emailThreads.search({ q })) ids.push(thread.thread_id);
  return ids;
};

describe('POST /email-threads/{id}/read-state', () => {
  it('marks every message read, then unread again', async () => {
    const read = await ada().emailThreads.setReadState(WRITE_THREADS.support, { read: true });
    expect(read.unread).toBe(false);
    expect((await messagesOf(WRITE_THREADS.support)).every((message) => !message.unread)).toBe(true);
    const unread = await ada().emailThreads.setReadState(WRITE_THREADS.support, { read: false });
    expect(unread.unread).toBe(true);
    expect(unread.thread_id).toBe(WRITE_THREADS.support);
    expect(unread.linked_tasks).toEqual([]);
  });

  it('needs email.modify, and answers 404 for a thread of another mailbox', async () => {
    const scope = await failure(
      clientFor(MAILBOX_SECRETS.adaMetadata).emailThreads.setReadState(THREADS.lunch, { read: true }),
    );
    expect(scope).toBeInstanceOf(InsufficientScopeError);
    expect(scope.details).toEqual({ required_scopes: ['email.modify'] });
    expect(await failure(ada().emailThreads.setReadState(THREADS.carols, { read: true }))).toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('POST /email-threads/{id}/labels', () => {
  it('adds and removes labels on every message of the thread', async () => {
    await ada().emailThreads.changeLabels(THREADS.lunch, {
      add: ['Label_1', 'IMPORTANT'],
      remove: ['STARRED'],
    });
    const [message] = await messagesOf(THREADS.lunch);
    expect(message?.labels).toEqual(expect.arrayContaining(['INBOX', 'Label_1', 'IMPORTANT']));
    expect(message?.labels).not.toContain('STARRED');
    expect(await search('label:Clients subject:lunch')).toEqual([THREADS.lunch]);
  });

  it('answers 404 naming an unknown label id, on either side, and changes nothing', async () => {
    const requests = {
      add: { add: ['Label_404'], remove: ['INBOX'] },
      remove: { remove: ['INBOX', 'Label_404'] },
    };
    for (const side of ['add', 'remove'] as const) {
      const error = await failure(ada().emailThreads.changeLabels(THREADS.lunch, requests[side]));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.code).toBe('not_found');
      expect(error.message).toContain('label Label_404');
    }
    expect((await messagesOf(THREADS.lunch))[0]?.labels).toContain('INBOX');
  });

  it('leaves SENT and DRAFT to sending and drafting', async () => {
    const error = await failure(ada().emailThreads.changeLabels(THREADS.lunch, { add: ['SENT'] }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/SENT cannot be changed/);
  });

  it('needs at least one label, checked by the client and by the server alike', async () => {
    expect(await failure(ada().emailThreads.changeLabels(THREADS.lunch, {}))).toBeInstanceOf(
      RequestValidationError,
    );
    const { status, body } = await readAnswer(
      await server.v2(`/email-threads/${THREADS.lunch}/labels`, { method: 'POST', body: { add: [] } }),
    );
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_error');
  });
});

describe('POST /email-threads/{id}/snooze', () => {
  it('takes the thread out of the Inbox until `until` on the server clock, then brings it back', async () => {
    const until = new Date(clock.getTime() + 2 * HOUR).toISOString();
    const snoozed = await ada().emailThreads.snooze(THREADS.lunch, { until });
    expect(snoozed.thread_id).toBe(THREADS.lunch);
    expect(await search('in:inbox')).not.toContain(THREADS.lunch);

    clock = new Date(clock.getTime() + HOUR);
    expect(await search('in:inbox')).not.toContain(THREADS.lunch);
    clock = new Date(clock.getTime() + HOUR);
    expect(await search('in:inbox')).toContain(THREADS.lunch);
    expect((await messagesOf(THREADS.lunch))[0]?.labels).toContain('INBOX');
  });

  it('comes back early when mail arrives in the thread', async () => {
    const until = new Date(clock.getTime() + 24 * HOUR).toISOString();
    await ada().emailThreads.snooze(THREADS.invoiceOld, { until });
    expect(await search('in:inbox')).not.toContain(THREADS.invoiceOld);
    const arrived = await deliver({
      mailbox: 'ada@example.com',
      thread_id: THREADS.invoiceOld,
      message: { from: { email: 'billing@utility.test' }, body_text: 'Reminder' },
    });
    expect(arrived.status).toBe(200);
    clock = new Date(clock.getTime() + 48 * HOUR);
    const [first] = await messagesOf(THREADS.invoiceOld);
    // The snooze ended when the mail arrived: its wake-up does not touch the thread again.
    expect(first?.labels).not.toContain('INBOX');
  });

  it('rejects a time that is not after the server clock, whatever the client clock says', async () => {
    // The server's clock is in January 2026; this instant is in the future of neither.
    const error = await failure(
      ada().emailThreads.snooze(THREADS.lunch, { until: new Date(clock.getTime() - 1000).toISOString() }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([
      { path: 'until', message: expect.stringMatching(/must be in the future/) },
    ]);
    expect(await search('in:inbox')).toContain(THREADS.lunch);
  });
});

describe('POST /email-threads/{id}/reply', () => {
  it('reply answers the Reply-To address, in the thread, as sent mail', async () => {
    const sent = await ada().emailThreads.reply(WRITE_THREADS.support, { body: 'On it.', is_html: false });
    expect(sent.thread_id).toBe(WRITE_THREADS.support);
    const thread = await ada().emailThreads.get(WRITE_THREADS.support, { include: 'messages' });
    expect(thread.direction).toBe('outbound');
    const message = thread.messages?.find((candidate) => candidate.id === sent.message_id);
    expect(message).toMatchObject({
      from: { email: 'ada@example.com', name: 'Ada Lovelace' },
      to: [{ email: 'support@stone.test', name: 'Stone Support' }],
      cc: [],
      subject: 'Re: Ticket 42',
      labels: ['SENT'],
      body_text: 'On it.',
      body_html: null,
    });
    expect(await search('in:sent subject:ticket')).toEqual([WRITE_THREADS.support]);
  });

  it('reply_all keeps the To and Cc audience without the mailbox owner', async () => {
    await deliver({
      mailbox: 'ada@example.com',
      thread_id: WRITE_THREADS.support,
      message: {
        from: { email: 'bob@stone.test', name: 'Bob' },
        reply_to: { email: 'support@stone.test', name: 'Stone Support' },
        to: [
          { email: 'ada@example.com', name: null },
          { email: 'eve@example.com', name: 'Eve' },
        ],
        cc: [
          { email: 'carol@example.com', name: null },
          { email: 'Ada@Example.com', name: null },
        ],
        body_text: 'Any news?',
      },
    });
    const sent = await ada().emailThreads.reply(WRITE_THREADS.support, {
      body: '<p>Fixed</p>',
      mode: 'reply_all',
    });
    const message = (await messagesOf(WRITE_THREADS.support)).find(
      (candidate) => candidate.id === sent.message_id,
    );
    expect(message?.to).toEqual([
      { email: 'support@stone.test', name: 'Stone Support' },
      { email: 'eve@example.com', name: 'Eve' },
    ]);
    expect(message?.cc).toEqual([{ email: 'carol@example.com', name: null }]);
    expect(message?.body_html).toBe('<p>Fixed</p>');
  });

  it('answering one’s own latest message writes to its recipients again', async () => {
    // The roof thread's latest message is ada's own, to Bob.
    const sent = await ada().emailThreads.reply(THREADS.roof, { body: 'Any update?' });
    const message = (await messagesOf(THREADS.roof)).find((candidate) => candidate.id === sent.message_id);
    expect(message?.to).toEqual([{ email: 'bob@stone.test', name: 'Bob' }]);
  });

  it('rejects a request naming recipients, in the client and in the server', async () => {
    const body = { body: 'hi', to: ['x@example.com'] } as unknown as { body: string };
    expect(await failure(ada().emailThreads.reply(THREADS.lunch, body))).toBeInstanceOf(
      RequestValidationError,
    );
    const before = (await messagesOf(THREADS.lunch)).length;
    for (const field of ['to', 'cc', 'bcc']) {
      const { status, body: answer } = await readAnswer(
        await server.v2(`/email-threads/${THREADS.lunch}/reply`, {
          method: 'POST',
          body: { body: 'hi', [field]: ['x@example.com'] },
        }),
      );
      expect(status).toBe(400);
      expect(answer.error.details).toEqual([
        { path: field, message: expect.stringMatching(/cannot be set/) },
      ]);
    }
    expect((await messagesOf(THREADS.lunch)).length).toBe(before);
  });

  it('needs email.reply; 404 for an unknown thread', async () => {
    const error = await failure(
      clientFor(MAILBOX_SECRETS.adaMetadata).emailThreads.reply(THREADS.lunch, { body: 'x' }),
    );
    expect(error.details).toEqual({ required_scopes: ['email.reply'] });
    expect(await failure(ada().emailThreads.reply('18ffffffffffffff', { body: 'x' }))).toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('POST /emails', () => {
  it('is opt-in: a key with the default scopes gets 403', async () => {
    const error = await failure(ada().emails.send({ to: ['eve@example.com'], subject: 'Hi', body: 'x' }));
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect(error.details).toEqual({ required_scopes: ['email.send'] });
  });

  it('sends a new thread, outbound and in SENT', async () => {
    const sent = await adaAll().emails.send({
      to: ['eve@example.com'],
      cc: ['carol@example.com'],
      bcc: ['audit@example.com'],
      subject: 'Quarterly numbers',
      body: 'Attached.',
      is_html: false,
    });
    expect(sent.message_id).toBe(sent.thread_id);
    const thread = await ada().emailThreads.get(sent.thread_id, { include: 'messages' });
    expect(thread).toMatchObject({ direction: 'outbound', unread: false, subject: 'Quarterly numbers' });
    expect(thread.messages?.[0]).toMatchObject({
      to: [{ email: 'eve@example.com', name: null }],
      cc: [{ email: 'carol@example.com', name: null }],
      labels: ['SENT'],
    });
    expect(await search('in:sent quarterly')).toEqual([sent.thread_id]);
  });

  it('sends into an existing thread; 404 for an unknown one', async () => {
    const sent = await adaAll().emails.send({
      to: ['carol@example.com'],
      subject: 'Re: Lunch on Friday?',
      body: 'Yes!',
      thread_id: THREADS.lunch,
    });
    expect(sent.thread_id).toBe(THREADS.lunch);
    expect((await ada().emailThreads.get(THREADS.lunch)).direction).toBe('outbound');
    const error = await failure(
      adaAll().emails.send({ to: ['x@example.com'], subject: 's', body: 'b', thread_id: '18ffffffffffffff' }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });
});

describe('drafts', () => {
  it('a thread draft defaults its subject, its recipients and is_html, and leaves the thread inbound', async () => {
    const draft = await ada().emailThreads.createDraft(THREADS.invoiceA, { body: '<p>Paid</p>' });
    expect(draft).toMatchObject({
      thread_id: THREADS.invoiceA,
      subject: 'Re: Invoice for December',
      to: ['billing@utility.test'],
      cc: [],
      snippet: 'Paid',
      date_modified: clock.toISOString(),
    });
    expect(draft.draft_id).toMatch(/^r[0-9a-f]{16}$/);
    const thread = await ada().emailThreads.get(THREADS.invoiceA, { include: 'messages' });
    expect(thread.direction).toBe('inbound');
    expect(thread.messages?.at(-1)).toMatchObject({
      id: draft.message_id,
      labels: ['DRAFT'],
      body_html: '<p>Paid</p>',
    });
  });

  it('a thread draft takes the recipients and subject it is given', async () => {
    const draft = await ada().emailThreads.createDraft(THREADS.invoiceB, {
      body: 'text',
      to: ['a@example.com'],
      cc: ['b@example.com'],
      subject: 'Own subject',
      is_html: false,
    });
    expect(draft).toMatchObject({ to: ['a@example.com'], cc: ['b@example.com'], subject: 'Own subject' });
    expect(await failure(ada().emailThreads.createDraft('18ffffffffffffff', { body: 'x' }))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('lists, sends (opt-in email.send) and deletes (opt-in drafts.delete) drafts', async () => {
    const created = await ada().drafts.create({ to: ['eve@example.com'], subject: 'Plan', body: '' });
    expect(created).toMatchObject({ subject: 'Plan', to: ['eve@example.com'], snippet: '' });
    const listed: string[] = [];
    for await (const draft of ada().drafts.list({ limit: 1 })) listed.push(draft.draft_id);
    expect(listed).toContain(created.draft_id);
    expect(new Set(listed).size).toBe(listed.length);

    const sendError = await failure(ada().drafts.send(created.draft_id));
    expect(sendError.details).toEqual({ required_scopes: ['email.send'] });
    const deleteError = await failure(ada().drafts.delete(created.draft_id));
    expect(deleteError.details).toEqual({ required_scopes: ['drafts.delete'] });

    clock = new Date(clock.getTime() + 60_000);
    const sent = await adaAll().drafts.send(created.draft_id);
    expect(sent).toEqual({ message_id: created.message_id, thread_id: created.thread_id });
    const [message] = await messagesOf(sent.thread_id);
    expect(message).toMatchObject({ labels: ['SENT'], date: clock.toISOString() });
    expect(await failure(adaAll().drafts.send(created.draft_id))).toBeInstanceOf(NotFoundError);

    const doomed = await ada().drafts.create({ to: ['eve@example.com'], subject: 'Doomed', body: 'x' });
    expect(await adaAll().drafts.delete(doomed.draft_id)).toEqual({ id: doomed.draft_id, deleted: true });
    expect(await failure(ada().emailThreads.get(doomed.thread_id as string))).toBeInstanceOf(NotFoundError);
    expect(await failure(adaAll().drafts.delete(doomed.draft_id))).toBeInstanceOf(NotFoundError);
    const remaining: string[] = [];
    for await (const draft of ada().drafts.list()) remaining.push(draft.draft_id);
    expect(remaining).not.toContain(created.draft_id);
    expect(remaining).not.toContain(doomed.draft_id);
  });

  it('a new draft needs a recipient', async () => {
    const { status, body } = await readAnswer(
      await server.v2('/drafts', { method: 'POST', body: { to: [], subject: 's', body: 'b' } }),
    );
    expect(status).toBe(400);
    expect(body.error.details[0].path).toBe('to');
  });
});

describe('a mailbox that is not usable', () => {
  const operations = (client: ThreadworkClient) => [
    // Thunks: each request starts only when the test awaits it.
    () => client.emailThreads.setReadState(THREADS.roof, { read: true }),
    () => client.emailThreads.changeLabels(THREADS.roof, { add: ['STARRED'] }),
    () => client.emailThreads.snooze(THREADS.roof, { until: '2027-01-01T00:00:00Z' }),
    () => client.emailThreads.reply(THREADS.roof, { body: 'x' }),
    () => client.emailThreads.createDraft(THREADS.roof, { body: 'x' }),
    () => client.emails.send({ to: ['x@example.com'], subject: 's', body: 'b' }),
    () => client.drafts.create({ to: ['x@example.com'], subject: 's', body: 'b' }),
    () => client.drafts.list().then((page) => page),
    () => client.drafts.send('r0123456789abcdef'),
    () => client.drafts.delete('r0123456789abcdef'),
    () => client.emailThreads.analyze(THREADS.roof),
    () => client.emailThreads.getAnalysis(THREADS.roof),
    () => client.emailLabels.list(),
  ];

  it('answers every mailbox operation with 409 mailbox_reauth_required', async () => {
    for (const operation of operations(clientFor(WRITE_SECRETS.bobAll))) {
      const error = await failure(operation());
      expect(error).toBeInstanceOf(MailboxReauthRequiredError);
      expect(error.status).toBe(409);
    }
  });

  it('answers every mailbox operation with 409 mailbox_not_connected', async () => {
    for (const operation of operations(clientFor(WRITE_SECRETS.danAll))) {
      expect(await failure(operation())).toBeInstanceOf(MailboxNotConnectedError);
    }
  });
});

describe('POST /_control/inbound-message', () => {
  it('takes unread: true as the UNREAD label, and unread: false as its absence', async () => {
    const unread = await deliver({
      mailbox: 'ada@example.com',
      message: { from: { email: 'x@example.com' }, unread: true },
    });
    expect(unread.status).toBe(200);
    expect((await messagesOf(unread.body.thread_id))[0]).toMatchObject({
      unread: true,
      labels: ['INBOX', 'UNREAD'],
    });
    const read = await deliver({
      mailbox: 'ada@example.com',
      message: { from: { email: 'x@example.com' }, unread: false, snippet: 'Given snippet', subject: 'S' },
    });
    expect((await messagesOf(read.body.thread_id))[0]).toMatchObject({
      unread: false,
      labels: ['INBOX'],
      snippet: 'Given snippet',
    });
    const agreeing = await deliver({
      mailbox: 'ada@example.com',
      message: { from: { email: 'x@example.com' }, unread: true, labels: ['UNREAD'] },
    });
    expect(agreeing.status).toBe(200);
  });

  it('answers 400 when unread and labels disagree, and delivers nothing', async () => {
    const before = await search('from:mismatch');
    for (const message of [
      { unread: true, labels: ['INBOX'] },
      { unread: false, labels: ['INBOX', 'UNREAD'] },
    ]) {
      const { status, body } = await deliver({
        mailbox: 'ada@example.com',
        message: { from: { email: 'mismatch@example.com' }, ...message },
      });
      expect(status).toBe(400);
      expect(body.error.details).toEqual([
        { path: 'message.unread', message: expect.stringMatching(/UNREAD/) },
      ]);
    }
    expect(await search('from:mismatch')).toEqual(before);
  });

  it('keeps reply_to, which a reply then answers; an id is the server’s to assign', async () => {
    const { body } = await deliver({
      mailbox: 'ada@example.com',
      message: {
        from: { email: 'shop@example.com', name: 'Shop' },
        reply_to: { email: 'help@example.com', name: null },
        subject: 'Your order',
      },
    });
    const sent = await ada().emailThreads.reply(body.thread_id, { body: 'Thanks' });
    const message = (await messagesOf(body.thread_id)).find((candidate) => candidate.id === sent.message_id);
    expect(message?.to).toEqual([{ email: 'help@example.com', name: null }]);
    const withId = await deliver({
      mailbox: 'ada@example.com',
      message: { id: 'abc', from: { email: 'x@example.com' } },
    });
    expect(withId.status).toBe(400);
    expect(withId.body.error.details).toEqual([{ path: 'message.id', message: 'unknown field' }]);
  });
});
