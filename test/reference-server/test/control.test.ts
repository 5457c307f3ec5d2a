import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.ts';
import { freshDatabase } from './helpers/database.ts';
import { SECRETS } from './helpers/fixtures.ts';
import { MAILBOX_NOW, mailboxSeed, THREADS } from './helpers/mailbox-fixtures.ts';
import { inboundMessage, readBody, startTestServer } from './helpers/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    port: 0,
    ...(await freshDatabase()),
    seed: mailboxSeed,
    testControl: true,
    now: () => MAILBOX_NOW,
  });
});
afterAll(() => server.close());

const deliver = (body: unknown) => inboundMessage(server, body);

const getThread = async (id: string) => {
  const response = await fetch(`${server.origin}/v2/email-threads/${id}?include=messages`, {
    headers: AUTH,
  });
  return (await readBody(response)).data;
};

const searchIds = async (q: string): Promise<string[]> => {
  const response = await fetch(`${server.origin}/v2/email-threads?q=${encodeURIComponent(q)}`, {
    headers: AUTH,
  });
  return (await readBody(response)).data.map((thread: { thread_id: string }) => thread.thread_id);
};

/** The thread.reply_received events recorded so far, oldest first. */
const replyEvents = async () => {
  const rows = await server.app.ctx.db
    .selectFrom('events')
    .select(['type', 'user_id', 'data', 'created_at'])
    .where('type', '=', 'thread.reply_received')
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ ...row, data: JSON.parse(row.data) }));
};

const AUTH = { authorization: `Bearer ${SECRETS.adaFull}` };
const bob = { email: 'bob@stone.test', name: 'Bob' };
const HEX16 = /^[1-9a-f][0-9a-f]{15}$/;

describe('POST /_control/inbound-message', () => {
  it('appends a message to an existing thread as arriving mail, and records thread.reply_received', async () => {
    const before = (await replyEvents()).length;
    const { status, body } = await deliver({
      mailbox: 'ADA@example.com',
      thread_id: THREADS.roof,
      message: { from: bob, body_text: 'Any   update\non the roof?' },
    });
    expect(status).toBe(200);
    // The bare answer, not the v2 envelope.
    expect(Object.keys(body).sort()).toEqual(['message_id', 'thread_id']);
    expect(body.thread_id).toBe(THREADS.roof);
    expect(body.message_id).toMatch(HEX16);

    const thread = await getThread(THREADS.roof);
    expect(thread.message_ids.at(-1)).toBe(body.message_id);
    expect(thread).toMatchObject({
      direction: 'inbound',
      unread: true,
      latest_message_at: MAILBOX_NOW.toISOString(),
      snippet: 'Any update on the roof?',
    });
    expect(thread.messages.at(-1)).toEqual({
      id: body.message_id,
      subject: 'Re: Quote for the roof',
      from: bob,
      to: [{ email: 'ada@example.com', name: 'Ada Lovelace' }],
      cc: [],
      date: MAILBOX_NOW.toISOString(),
      snippet: 'Any update on the roof?',
      unread: true,
      labels: ['INBOX', 'UNREAD'],
      body_text: 'Any   update\non the roof?',
      body_html: null,
    });

    const events = await replyEvents();
    expect(events).toHaveLength(before + 1);
    const event = events.at(-1);
    expect(event?.user_id).toBe('usr_ada');
    expect(event?.data.thread).toMatchObject({ thread_id: THREADS.roof, direction: 'inbound', unread: true });
    expect(event?.data.thread.message_ids).toContain(body.message_id);
    expect(event?.data.message).toMatchObject({
      id: body.message_id,
      from: bob,
      labels: ['INBOX', 'UNREAD'],
    });
    // Bodies never leave in events; linked tasks are those ada can see.
    expect(event?.data.message).not.toHaveProperty('body_text');
    expect(event?.data.message).not.toHaveProperty('body_html');
    expect(event?.data.thread).not.toHaveProperty('messages');
    expect(event?.data.linked_tasks).toEqual([{ id: 'tsk_roof', title: 'Send the roof quote' }]);
  });

  it('starts a new thread whose first message shares its id', async () => {
    const { status, body } = await deliver({
      mailbox: 'ada@example.com',
      message: {
        from: { email: 'eve@new.test', name: 'Eve' },
        subject: 'New enquiry about gutters',
        date: '2026-01-08T11:00:00Z',
        body_html: '<p>Do you <b>clean</b> gutters?</p>',
        attachment_count: 1,
      },
    });
    expect(status).toBe(200);
    expect(body.thread_id).toMatch(HEX16);
    expect(body.message_id).toBe(body.thread_id);

    const thread = await getThread(body.thread_id);
    expect(thread).toMatchObject({
      thread_id: body.thread_id,
      message_ids: [body.thread_id],
      subject: 'New enquiry about gutters',
      participants: [
        { email: 'eve@new.test', name: 'Eve' },
        { email: 'ada@example.com', name: 'Ada Lovelace' },
      ],
      latest_message_at: '2026-01-08T11:00:00Z',
      snippet: 'Do you clean gutters?',
      linked_tasks: [],
    });
    expect(await searchIds('has:attachment')).toEqual([body.thread_id]);
    expect(await searchIds('gutters is:unread')).toEqual([body.thread_id]);

    const event = (await replyEvents()).at(-1);
    expect(event?.data.thread.thread_id).toBe(body.thread_id);
    expect(event?.data.linked_tasks).toEqual([]);
  });

  it('keeps the labels it is given', async () => {
    const { body } = await deliver({
      mailbox: 'ada@example.com',
      message: { from: bob, subject: 'Filed straight away', labels: ['INBOX', 'Label_1'] },
    });
    const thread = await getThread(body.thread_id);
    expect(thread.unread).toBe(false);
    expect(thread.messages[0].labels).toEqual(['INBOX', 'Label_1']);
    expect(await searchIds('label:clients "filed straight"')).toEqual([body.thread_id]);
  });

  it('404s an unknown mailbox or thread, and 409s a mailbox that is not connected', async () => {
    const before = (await replyEvents()).length;
    const unknownMailbox = await deliver({ mailbox: 'nobody@example.com', message: { from: bob } });
    expect(unknownMailbox.status).toBe(404);
    expect(unknownMailbox.body.error.code).toBe('not_found');
    const unknownThread = await deliver({
      mailbox: 'ada@example.com',
      thread_id: 'ffffffffffffffff',
      message: { from: bob },
    });
    expect(unknownThread.status).toBe(404);
    // Another mailbox's thread is unknown here.
    const foreignThread = await deliver({
      mailbox: 'ada@example.com',
      thread_id: THREADS.carols,
      message: { from: bob },
    });
    expect(foreignThread.status).toBe(404);
    const reauth = await deliver({ mailbox: 'bob@example.com', message: { from: bob } });
    expect(reauth.status).toBe(409);
    expect(reauth.body.error.code).toBe('mailbox_reauth_required');
    expect(await replyEvents()).toHaveLength(before);
  });

  it('answers 400 validation_error for a bad body, naming each problem', async () => {
    const missing = await deliver({ mailbox: 'ada@example.com', message: { subject: 'no sender' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation_error');
    expect(missing.body.error.details).toEqual([{ path: 'message.from', message: expect.any(String) }]);

    const wrong = await deliver({
      mailbox: 'ada',
      thread_id: 'not-hex',
      message: { from: bob, colour: 'red' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      'mailbox',
      'message.colour',
      'thread_id',
    ]);

    const label = await deliver({
      mailbox: 'ada@example.com',
      message: { from: bob, labels: ['Label_404'] },
    });
    // An unknown id in a body answers 404 naming it, as one in a path does.
    expect(label.status).toBe(404);
    expect(label.body.error).toMatchObject({ code: 'not_found', message: 'label Label_404 was not found' });
  });
});

describe('without --test-control', () => {
  it('has no /_control endpoints', async () => {
    const plain = await startTestServer({ seed: mailboxSeed });
    try {
      const response = await fetch(`${plain.origin}/_control/inbound-message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mailbox: 'ada@example.com', message: { from: bob } }),
      });
      expect(response.status).toBe(404);
      expect((await readBody(response)).error.code).toBe('not_found');
      // Nothing was delivered.
      const search = await plain.v2('/email-threads?q=in:anywhere');
      expect((await readBody(search)).data).toHaveLength(7);
    } finally {
      await plain.close();
    }
  });
});
