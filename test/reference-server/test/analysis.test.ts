// AI analysis: the deterministic classifier, its per-thread cache, and the AI-managed custom fields it
// writes, over HTTP through the typed client.
import { InsufficientScopeError, NotFoundError, ValidationError } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiFieldOption, classify } from '../src/domain/analysis.ts';
import type { MailMessage } from '../src/domain/mailbox/provider.ts';
import { SECRETS } from './helpers/fixtures.ts';
import { MAILBOX_NOW, MAILBOX_SECRETS, THREADS } from './helpers/mailbox-fixtures.ts';
import { AI_FIELDS, mailboxWritesSeed } from './helpers/mailbox-writes-fixtures.ts';
import { failure, inboundMessage, startTestServer, type TestServer, typedClient } from './helpers/server.ts';

const OWNER = 'ada@example.com';
const message = (fields: Partial<MailMessage>): MailMessage => ({
  id: '18c2f0a1b2c3d4e5',
  from: { email: 'bob@stone.test', name: 'Bob' },
  to: [{ email: OWNER, name: null }],
  cc: [],
  reply_to: null,
  subject: null,
  date: null,
  labels: ['INBOX'],
  body_text: null,
  body_html: null,
  ...fields,
});

describe('the classifier', () => {
  it('a question or a request from someone else needs a reply', () => {
    expect(classify(message({ body_text: 'Are you free on Friday?' }), OWNER)).toEqual({
      status: 'needs_reply',
      urgency: 'medium',
      sentiment: 'neutral',
    });
    expect(classify(message({ body_text: 'Please send the report.' }), OWNER).status).toBe('needs_reply');
  });

  it('the owner’s own latest message is waiting for an answer', () => {
    const sent = message({ from: { email: 'ADA@example.com', name: null }, body_text: 'Can you check?' });
    expect(classify(sent, OWNER).status).toBe('waiting');
  });

  it('automated and bulk mail is fyi; a closing note is resolved', () => {
    expect(
      classify(
        message({ from: { email: 'no-reply@shop.test', name: null }, body_text: 'Can you rate us?' }),
        OWNER,
      ).status,
    ).toBe('fyi');
    expect(classify(message({ labels: ['CATEGORY_PROMOTIONS'], body_text: 'Sale' }), OWNER).status).toBe(
      'fyi',
    );
    expect(classify(message({ body_text: 'Thanks, the ticket is resolved.' }), OWNER)).toEqual({
      status: 'resolved',
      urgency: 'low',
      sentiment: 'positive',
    });
    expect(classify(message({ body_text: 'Your invoice is ready.' }), OWNER).status).toBe('fyi');
  });

  it('urgent words make it high; complaints make it negative; HTML bodies are read as text', () => {
    const complaint = message({
      body_html: '<p>The site is <b>broken</b>, this is unacceptable. Fix it ASAP!</p>',
    });
    expect(classify(complaint, OWNER)).toEqual({ status: 'fyi', urgency: 'high', sentiment: 'negative' });
    expect(classify(message({ subject: 'Reminder', body_text: 'Due tomorrow.' }), OWNER).urgency).toBe(
      'medium',
    );
  });

  it('maps an answer onto an AI field by its option labels', () => {
    const status = [
      { id: 'a', label: 'Needs reply' },
      { id: 'b', label: 'Waiting' },
    ];
    const answer = { status: 'waiting', urgency: 'low', sentiment: 'neutral' } as const;
    expect(aiFieldOption(status, answer)).toMatchObject({ id: 'b' });
    expect(aiFieldOption(status, { ...answer, status: 'fyi' })).toBeNull();
    expect(aiFieldOption([{ id: 'h', label: 'HIGH' }], { ...answer, urgency: 'high' })).toMatchObject({
      id: 'h',
    });
    expect(aiFieldOption([{ id: 'x', label: 'Blue' }], answer)).toBeUndefined();
  });
});

let server: TestServer;
let clock = MAILBOX_NOW;
beforeAll(async () => {
  server = await startTestServer({ seed: mailboxWritesSeed, testControl: true, now: () => clock });
});
afterAll(() => server.close());

const client = (apiKey: string = SECRETS.adaFull) => typedClient(server, { apiKey });

async function deliver(threadId: string, body_text: string) {
  return inboundMessage(server, {
    mailbox: OWNER,
    thread_id: threadId,
    message: { from: { email: 'bob@stone.test', name: 'Bob' }, body_text },
  });
}

const fieldValues = async () => {
  const task = await client().tasks.get('tsk_roof');
  return Object.fromEntries(task.custom_fields.map((value) => [value.field_id, value.value]));
};

describe('POST and GET /email-threads/{id}/analysis', () => {
  it('GET answers 404 until the thread is classified', async () => {
    expect(await failure(client().emailThreads.getAnalysis(THREADS.lunch))).toBeInstanceOf(NotFoundError);
  });

  it('POST classifies the newest message; GET answers the cached analysis', async () => {
    const analysis = await client().emailThreads.analyze(THREADS.lunch);
    expect(analysis).toEqual({
      thread_id: THREADS.lunch,
      message_id: THREADS.lunch,
      urgency: 'medium',
      sentiment: 'neutral',
      status: 'needs_reply',
      analyzed_at: clock.toISOString(),
      model: 'threadwork-rules-1',
    });
    expect(await client().emailThreads.getAnalysis(THREADS.lunch)).toEqual(analysis);
  });

  it('is recomputed only when a newer message arrives', async () => {
    const first = await client().emailThreads.getAnalysis(THREADS.lunch);
    clock = new Date(clock.getTime() + 60_000);
    expect(await client().emailThreads.analyze(THREADS.lunch)).toEqual(first);

    const arrived = await deliver(THREADS.lunch, 'Never mind, all set. Thanks!');
    expect(await failure(client().emailThreads.getAnalysis(THREADS.lunch))).toBeInstanceOf(NotFoundError);
    const second = await client().emailThreads.analyze(THREADS.lunch);
    expect(second).toMatchObject({
      message_id: arrived.body.message_id,
      status: 'resolved',
      sentiment: 'positive',
      analyzed_at: clock.toISOString(),
    });
  });

  it('writes the AI-managed fields of the tasks linked to the thread', async () => {
    // The roof thread's newest message is ada's own thank-you: waiting, positive.
    await client().emailThreads.analyze(THREADS.roof);
    expect(await fieldValues()).toEqual({
      [AI_FIELDS.status]: ['opt_waiting'],
      [AI_FIELDS.sentiment]: ['opt_positive'],
    });
    await deliver(THREADS.roof, 'The roof is broken again. Can you come today?');
    await client().emailThreads.analyze(THREADS.roof);
    expect(await fieldValues()).toEqual({
      [AI_FIELDS.status]: ['opt_needs_reply'],
      [AI_FIELDS.sentiment]: ['opt_negative'],
    });
    // The mood field has no Neutral option: a neutral answer clears it rather than leaving it stale.
    await deliver(THREADS.roof, 'See you on Monday.');
    await client().emailThreads.analyze(THREADS.roof);
    expect(await fieldValues()).toEqual({ [AI_FIELDS.status]: ['opt_fyi'] });
  });

  it('AI-managed fields stay read-only through the API', async () => {
    const patch = await failure(
      client().tasks.update('tsk_roof', {
        custom_fields: [{ field_id: AI_FIELDS.status, value: ['opt_resolved'] }],
      }),
    );
    expect(patch).toBeInstanceOf(ValidationError);
    expect(patch.message).toMatch(/managed by the AI and is read-only/);
    const field = await failure(client().customFields.update(AI_FIELDS.status, { name: 'Renamed' }));
    expect(field.status).toBe(400);
    expect(field.message).toMatch(/managed by the AI and is read-only/);
    expect(await fieldValues()).toEqual({ [AI_FIELDS.status]: ['opt_fyi'] });
  });

  it('needs ai.write to classify and ai.read to read; 404 for a thread of another mailbox', async () => {
    const metadataOnly = client(MAILBOX_SECRETS.adaMetadata);
    const write = await failure(metadataOnly.emailThreads.analyze(THREADS.lunch));
    expect(write).toBeInstanceOf(InsufficientScopeError);
    expect(write.details).toEqual({ required_scopes: ['ai.write'] });
    const read = await failure(metadataOnly.emailThreads.getAnalysis(THREADS.lunch));
    expect(read.details).toEqual({ required_scopes: ['ai.read'] });
    expect(await failure(client().emailThreads.analyze(THREADS.carols))).toBeInstanceOf(NotFoundError);
    expect(await failure(client().emailThreads.getAnalysis(THREADS.carols))).toBeInstanceOf(NotFoundError);
  });
});
