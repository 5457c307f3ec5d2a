import { EmailLabels, EmailThread, Mailbox } from '@threadwork/shared/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRETS } from './helpers/fixtures.ts';
import { MAILBOX_NOW, MAILBOX_SECRETS, mailboxSeed, THREADS } from './helpers/mailbox-fixtures.ts';
import { readAnswer, startTestServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: mailboxSeed, now: () => MAILBOX_NOW });
});
afterAll(() => server.close());

const get = async (path: string, key?: string) => {
  const response = await server.v2(path, key === undefined ? {} : { key });
  return readAnswer(response);
};
const threadIds = (body: { data: { thread_id: string }[] }) => body.data.map((thread) => thread.thread_id);
const search = async (q: string) => get(`/email-threads?q=${encodeURIComponent(q)}`);

describe('GET /mailbox', () => {
  it('reports a connected mailbox', async () => {
    const { status, body } = await get('/mailbox');
    expect(status).toBe(200);
    expect(Mailbox.parse(body.data)).toEqual({
      connected: true,
      provider_id: 'gmail',
      email_address: 'ada@example.com',
      reason: null,
    });
  });

  it('reports a mailbox that needs reauthorisation, naming its account', async () => {
    const { body } = await get('/mailbox', SECRETS.bobFull);
    expect(body.data).toEqual({
      connected: false,
      provider_id: 'gmail',
      email_address: 'bob@example.com',
      reason: 'reauth_required',
    });
  });

  it('reports not_connected for a user without a mailbox', async () => {
    const { status, body } = await get('/mailbox', MAILBOX_SECRETS.dan);
    expect(status).toBe(200);
    expect(body.data).toEqual({
      connected: false,
      provider_id: null,
      email_address: null,
      reason: 'not_connected',
    });
  });

  it('needs email.metadata.read', async () => {
    const { status, body } = await get('/mailbox', SECRETS.adaBoardsRead);
    expect(status).toBe(403);
    expect(body.error.details).toEqual({ required_scopes: ['email.metadata.read'] });
  });
});

describe('GET /email-threads', () => {
  it('lists the mailbox newest first, leaving Trash and Spam out', async () => {
    const { status, body } = await get('/email-threads');
    expect(status).toBe(200);
    expect(threadIds(body)).toEqual([
      THREADS.lunch,
      THREADS.roof,
      THREADS.invoiceB,
      THREADS.invoiceA,
      THREADS.invoiceOld,
    ]);
    expect(body.meta.pagination).toEqual({ next_cursor: null, has_more: false, limit: 50 });
  });

  it('answers each thread as the spec shapes it, without linked_tasks or messages', async () => {
    const { body } = await search('subject:roof');
    expect(body.data).toHaveLength(1);
    const thread = body.data[0];
    expect(EmailThread.parse(thread)).toBeTruthy();
    expect(thread).toEqual({
      provider: 'gmail',
      thread_id: THREADS.roof,
      message_ids: [THREADS.roof, '18c2f0a1b2c3d4f0'],
      subject: 'Quote for the roof',
      participants: [
        { email: 'bob@stone.test', name: 'Bob' },
        // First seen without a name, named by the later reply.
        { email: 'ada@example.com', name: 'Ada Lovelace' },
        { email: 'carol@example.com', name: null },
      ],
      latest_message_at: '2026-01-05T10:00:00Z',
      snippet: 'Thanks Bob, that works for me.',
      direction: 'outbound',
      unread: true,
    });
  });

  it('marks a thread inbound when its latest message was received', async () => {
    const { body } = await search('lunch');
    expect(body.data[0]).toMatchObject({ thread_id: THREADS.lunch, direction: 'inbound', unread: false });
  });

  it('pages through the results with limit and cursor, ties included', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const query: string =
        cursor === null ? '/email-threads?limit=2' : `/email-threads?limit=2&cursor=${cursor}`;
      const { body } = await get(query);
      seen.push(...threadIds(body));
      expect(body.meta.pagination.limit).toBe(2);
      cursor = body.meta.pagination.next_cursor;
      expect(body.meta.pagination.has_more).toBe(cursor !== null);
      if (cursor === null) break;
    }
    expect(seen).toEqual([
      THREADS.lunch,
      THREADS.roof,
      THREADS.invoiceB,
      THREADS.invoiceA,
      THREADS.invoiceOld,
    ]);
  });

  it('rejects a cursor it did not issue', async () => {
    const { status, body } = await get('/email-threads?cursor=bm9wZQ');
    expect(status).toBe(400);
    expect(body.error.details).toEqual([{ path: 'cursor', message: expect.any(String) }]);
  });

  it('searches with Gmail syntax', async () => {
    expect(threadIds((await search('from:bob')).body)).toEqual([THREADS.roof]);
    expect(threadIds((await search('label:clients')).body)).toEqual([THREADS.roof]);
    expect(threadIds((await search('is:starred')).body)).toEqual([THREADS.lunch]);
    expect(threadIds((await search('is:unread')).body)).toEqual([THREADS.roof]);
    expect(threadIds((await search('invoice -december')).body)).toEqual([
      THREADS.invoiceB,
      THREADS.invoiceOld,
    ]);
    expect(threadIds((await search('lunch OR roof')).body)).toEqual([THREADS.lunch, THREADS.roof]);
    expect(threadIds((await search('"that works"')).body)).toEqual([THREADS.roof]);
    expect(threadIds((await search('after:2026/01/01 before:2026-01-04')).body)).toEqual([
      THREADS.invoiceB,
      THREADS.invoiceA,
    ]);
    // The server's clock is 2026-01-08T12:00Z.
    expect(threadIds((await search('newer_than:3d')).body)).toEqual([THREADS.lunch]);
    expect(threadIds((await search('older_than:1m')).body)).toEqual([THREADS.invoiceOld]);
  });

  it('finds Trash and Spam when asked', async () => {
    expect(threadIds((await search('in:trash')).body)).toEqual([THREADS.newsletter]);
    expect(threadIds((await search('in:spam')).body)).toEqual([THREADS.prize]);
    expect(threadIds((await search('in:anywhere newer_than:3d')).body)).toEqual([
      THREADS.newsletter,
      THREADS.prize,
      THREADS.lunch,
    ]);
  });

  it('answers 400 naming q for a malformed query', async () => {
    const { status, body } = await search('(roof');
    expect(status).toBe(400);
    expect(body.error.code).toBe('validation_error');
    expect(body.error.details).toEqual([{ path: 'q', message: expect.stringContaining('never closed') }]);
  });

  it('rejects unknown query parameters', async () => {
    const { status, body } = await get('/email-threads?query=roof');
    expect(status).toBe(400);
    expect(body.error.details).toEqual([{ path: 'query', message: 'unknown field' }]);
  });

  it('searches only the caller’s own mailbox', async () => {
    expect(threadIds((await search('carol')).body)).not.toContain(THREADS.carols);
    expect((await search('"only carol"')).body.data).toEqual([]);
  });
});

describe('GET /email-threads/{id}', () => {
  it('answers the thread with the linked tasks the caller can see', async () => {
    const { status, body } = await get(`/email-threads/${THREADS.roof}`);
    expect(status).toBe(200);
    expect(EmailThread.parse(body.data)).toBeTruthy();
    expect(body.data.linked_tasks).toEqual([{ id: 'tsk_roof', title: 'Send the roof quote' }]);
    expect(body.data).not.toHaveProperty('messages');
    expect(body.data.thread_id).toBe(THREADS.roof);
  });

  it('answers an empty linked_tasks for a thread without tasks', async () => {
    const { body } = await get(`/email-threads/${THREADS.lunch}`);
    expect(body.data.linked_tasks).toEqual([]);
  });

  it('includes the messages with bodies for include=messages, oldest first', async () => {
    const { status, body } = await get(`/email-threads/${THREADS.roof}?include=messages`);
    expect(status).toBe(200);
    const [first, reply] = body.data.messages;
    expect(first).toEqual({
      id: THREADS.roof,
      subject: 'Quote for the roof',
      from: { email: 'bob@stone.test', name: 'Bob' },
      to: [{ email: 'ada@example.com', name: null }],
      cc: [{ email: 'carol@example.com', name: null }],
      date: '2026-01-05T09:00:00Z',
      snippet: 'Hi Ada, the quote for the roof is attached.',
      unread: true,
      labels: ['INBOX', 'Label_1', 'UNREAD'],
      body_text: 'Hi Ada,\n\nthe quote   for the roof is attached.',
      body_html: '<p>Hi Ada, the quote for the roof is attached.</p>',
    });
    expect(reply).toMatchObject({ id: '18c2f0a1b2c3d4f0', unread: false, labels: ['SENT'], body_html: null });
  });

  it('needs email.body.read for include=messages, and only then', async () => {
    const denied = await get(`/email-threads/${THREADS.roof}?include=messages`, MAILBOX_SECRETS.adaMetadata);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
    expect(denied.body.error.details).toEqual({ required_scopes: ['email.body.read'] });
    const allowed = await get(`/email-threads/${THREADS.roof}`, MAILBOX_SECRETS.adaMetadata);
    expect(allowed.status).toBe(200);
  });

  it('refuses include without email.body.read before reading its value, like the route scopes', async () => {
    const denied = await get(`/email-threads/${THREADS.roof}?include=bodies`, MAILBOX_SECRETS.adaMetadata);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toEqual({ required_scopes: ['email.body.read'] });
  });

  it('rejects an include other than messages', async () => {
    const { status, body } = await get(`/email-threads/${THREADS.roof}?include=bodies`);
    expect(status).toBe(400);
    expect(body.error.details[0].path).toBe('include');
  });

  it('404s another user’s thread and a thread that does not exist', async () => {
    for (const id of [THREADS.carols, 'ffffffffffffffff', 'not-hex']) {
      const { status, body } = await get(`/email-threads/${id}`);
      expect(status).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
  });
});

describe('GET /email-labels', () => {
  it('lists the system labels, then the user’s', async () => {
    const { status, body } = await get('/email-labels');
    expect(status).toBe(200);
    const { labels } = EmailLabels.parse(body.data);
    expect(labels[0]).toEqual({ id: 'INBOX', name: 'Inbox', type: 'system' });
    expect(labels.map((label) => label.id)).toEqual(
      expect.arrayContaining(['SENT', 'SPAM', 'TRASH', 'STARRED']),
    );
    expect(labels.filter((label) => label.type === 'user')).toEqual([
      { id: 'Label_1', name: 'Clients', type: 'user' },
    ]);
    expect(labels.at(-1)?.type).toBe('user');
  });
});

describe('a mailbox that cannot be used', () => {
  const paths = ['/email-threads', `/email-threads/${THREADS.roof}`, '/email-labels'];

  it('answers 409 mailbox_reauth_required while the authorisation is unusable', async () => {
    for (const path of paths) {
      const { status, body } = await get(path, SECRETS.bobFull);
      expect(status).toBe(409);
      expect(body.error.code).toBe('mailbox_reauth_required');
    }
  });

  it('answers 409 mailbox_not_connected without a mailbox', async () => {
    for (const path of paths) {
      const { status, body } = await get(path, MAILBOX_SECRETS.dan);
      expect(status).toBe(409);
      expect(body.error.code).toBe('mailbox_not_connected');
    }
  });
});
