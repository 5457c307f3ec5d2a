// Mailbox writes and AI analysis through the typed client against a server started by its contract.
import { InsufficientScopeError, NotFoundError, ThreadworkClient } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectionOf } from './helpers/errors.ts';
import { type LiveServer, startLiveServer } from './helpers/live-server.ts';
import { CREDENTIALS, THREADS } from './helpers/seed.ts';

let server: LiveServer | undefined;
let client: ThreadworkClient;

beforeAll(async () => {
  server = await startLiveServer();
  client = new ThreadworkClient({ baseUrl: server.v2BaseUrl, apiKey: CREDENTIALS.full, maxRetries: 0 });
});

afterAll(async () => {
  if (server) expect(await server.stop()).toBe(0);
});

const inInbox = async () => {
  const ids: string[] = [];
  for await (const thread of client.emailThreads.search({ q: 'in:inbox' })) ids.push(thread.thread_id);
  return ids;
};

describe('mailbox writes', () => {
  it('replies into the thread as sent mail, to the sender', async () => {
    const sent = await client.emailThreads.reply(THREADS.roof.id, { body: 'Thanks, Bob.', is_html: false });
    const thread = await client.emailThreads.get(THREADS.roof.id, { include: 'messages' });
    expect(thread.direction).toBe('outbound');
    expect(thread.messages?.at(-1)).toMatchObject({
      id: sent.message_id,
      to: [THREADS.roof.from],
      subject: `Re: ${THREADS.roof.subject}`,
      labels: ['SENT'],
    });
  });

  it('marks read, labels and snoozes a thread', async () => {
    expect((await client.emailThreads.setReadState(THREADS.roof.id, { read: true })).unread).toBe(false);
    await client.emailThreads.changeLabels(THREADS.lunch.id, { add: ['STARRED'] });
    const starred: string[] = [];
    for await (const thread of client.emailThreads.search({ q: 'is:starred' }))
      starred.push(thread.thread_id);
    expect(starred).toEqual([THREADS.lunch.id]);
    await client.emailThreads.snooze(THREADS.lunch.id, { until: '2099-01-01T00:00:00Z' });
    expect(await inInbox()).not.toContain(THREADS.lunch.id);
  });

  it('keeps drafts in the mailbox; sending one needs the opt-in email.send', async () => {
    const draft = await client.emailThreads.createDraft(THREADS.roof.id, { body: 'Draft reply' });
    expect(draft).toMatchObject({ thread_id: THREADS.roof.id, subject: `Re: ${THREADS.roof.subject}` });
    const ids: string[] = [];
    for await (const listed of client.drafts.list()) ids.push(listed.draft_id);
    expect(ids).toContain(draft.draft_id);
    expect(await rejectionOf(client.drafts.send(draft.draft_id))).toBeInstanceOf(InsufficientScopeError);
  });

  it('classifies a thread and answers the cached analysis', async () => {
    expect(await rejectionOf(client.emailThreads.getAnalysis(THREADS.lunch.id))).toBeInstanceOf(
      NotFoundError,
    );
    const analysis = await client.emailThreads.analyze(THREADS.roof.id);
    // The newest message is ada's own reply: the thread waits for Bob.
    expect(analysis).toMatchObject({
      thread_id: THREADS.roof.id,
      status: 'waiting',
      model: 'threadwork-rules-1',
    });
    expect(await client.emailThreads.getAnalysis(THREADS.roof.id)).toEqual(analysis);
  });
});
