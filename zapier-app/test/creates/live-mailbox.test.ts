import type { EmailThread } from '@threadwork/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { appTester, rejection, sessionPerform, zapierMessage } from '../helpers/auth.ts';
import { CREDENTIALS } from '../helpers/live.ts';
import { startConnected, THREADS } from './live.ts';
import { operationOf } from './support.ts';

// The mailbox and AI actions against a live reference server started by its contract.

const live = await startConnected();

afterAll(async () => {
  await live.server.stop();
});

async function thread(id: string): Promise<EmailThread> {
  return live.service.emailThreads.get(id);
}

async function threadIds(q: string): Promise<string[]> {
  return (await live.service.emailThreads.search({ q })).data.map((found) => found.thread_id);
}

describe('create_draft, live', () => {
  it('twice in a thread leaves one reply draft there', async () => {
    const draft = await live.twice('create_draft', { thread_id: THREADS.roof.id, body: 'Live: thanks Bob' });
    expect(draft).toMatchObject({ thread_id: THREADS.roof.id, subject: `Re: ${THREADS.roof.subject}` });
    const drafts = (await live.service.drafts.list()).data.filter(
      (candidate) => candidate.thread_id === THREADS.roof.id,
    );
    expect(drafts.map((candidate) => candidate.draft_id)).toEqual([draft['draft_id']]);
  });

  it('twice as a new message leaves one draft', async () => {
    const inputs = { to: ['carol@cafe.test'], subject: 'Live: new draft', body: 'Hello' };
    const draft = await live.twice('create_draft', inputs);
    const drafts = (await live.service.drafts.list()).data.filter(
      (candidate) => candidate.subject === 'Live: new draft',
    );
    expect(drafts.map((candidate) => candidate.draft_id)).toEqual([draft['draft_id']]);
  });

  it('takes recipients as triggers write them: Name <email>, and several in one line', async () => {
    const draft = await live.twice('create_draft', {
      to: 'Bob Stone <bob@stone.test>, "Stone, Carol" <carol@stone.test>',
      subject: 'Live: named recipients',
      body: 'Hello both',
    });
    expect(draft['to']).toEqual(['bob@stone.test', 'carol@stone.test']);
  });
});

describe('blank bodies are refused by label, and nothing is sent or drafted', () => {
  it.each(['create_draft', 'reply_to_thread'])('%s with a body of spaces', async (key) => {
    const before = await thread(THREADS.lunch.id);
    const drafts = (await live.service.drafts.list()).data.length;
    const error = await rejection(live.run('creates', key, { thread_id: THREADS.lunch.id, body: '  \n ' }));
    expect(zapierMessage(error)).toBe(
      'Body: is required, but it is empty (a value mapped from an earlier step may be blank)',
    );
    expect((await thread(THREADS.lunch.id)).message_ids).toEqual(before.message_ids);
    expect((await live.service.drafts.list()).data).toHaveLength(drafts);
  });
});

describe('reply_to_thread, live', () => {
  it('twice sends one reply', async () => {
    const before = (await thread(THREADS.lunch.id)).message_ids.length;
    const sent = await live.twice('reply_to_thread', {
      thread_id: THREADS.lunch.id,
      body: 'Live: see you then',
    });
    expect(sent).toMatchObject({ thread_id: THREADS.lunch.id });
    expect((await thread(THREADS.lunch.id)).message_ids).toHaveLength(before + 1);
  });
});

// Whole Zaps sending with and without the permission, run after run: test/journeys/journeys.test.ts.
describe('send_email, live', () => {
  it('sends with a connection whose legacy key holds the opt-in email.send (a seeded key holds every scope)', async () => {
    const sent = (await live.run('creates', 'send_email', {
      to: 'carol@cafe.test',
      subject: 'Live: hello',
      body: 'Hi',
    })) as Record<string, unknown>;
    expect(sent).toMatchObject({ thread_id: expect.any(String) });
    expect(await threadIds('in:sent "Live: hello"')).toContain(sent['thread_id']);
  });

  it('says which permission is missing for a connection whose legacy key lacks email.send', async () => {
    // Created without scopes, a legacy key holds every scope but the opt-in ones.
    const key = await live.service.apiKeys.create({ name: 'Zapier without send', type: 'legacy' });
    const credentials = {
      origin: live.server.origin,
      email: CREDENTIALS.legacy.email,
      api_key: key.api_key!,
      api_secret: key.api_secret!,
      api_key_name: 'Zapier without send',
    };
    const { sessionKey } = await appTester(sessionPerform, { authData: credentials });
    await expect(
      appTester(operationOf('creates', 'send_email').perform as never, {
        authData: { ...credentials, sessionKey },
        inputData: { to: 'carol@cafe.test', subject: 'Live: not sent', body: 'Hi' },
      }),
    ).rejects.toThrow(/Send email\\?" ticked.*reconnect this Zapier connection with the new key/);
    expect(await threadIds('"Live: not sent"')).toEqual([]);
  });
});

describe('change_labels, live', () => {
  it('offers the mailbox labels as choices, and twice adds and removes once', async () => {
    const fields = await live.inputFields('change_labels', { thread_id: THREADS.roof.id });
    const add = fields.find((field) => field['key'] === 'add');
    expect(add?.['choices']).toEqual(
      expect.arrayContaining([{ value: 'Label_1', label: 'Clients', sample: 'Label_1' }]),
    );
    const result = await live.twice('change_labels', {
      thread_id: THREADS.lunch.id,
      add: ['STARRED'],
      remove: ['INBOX'],
    });
    expect(result).toMatchObject({ thread_id: THREADS.lunch.id });
    expect(await threadIds('is:starred')).toContain(THREADS.lunch.id);
    expect(await threadIds('in:inbox')).not.toContain(THREADS.lunch.id);
  });
});

describe('set_read_state, live', () => {
  it('twice marks the thread read', async () => {
    expect(await live.twice('set_read_state', { thread_id: THREADS.roof.id, read: true })).toMatchObject({
      unread: false,
    });
    expect((await thread(THREADS.roof.id)).unread).toBe(false);
  });
});

describe('snooze_thread, live', () => {
  it('twice snoozes the thread out of the Inbox', async () => {
    const until = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    await live.twice('snooze_thread', { thread_id: THREADS.roof.id, until });
    expect(await threadIds('in:inbox')).not.toContain(THREADS.roof.id);
  });

  it('a time in the past is refused with what is wrong', async () => {
    await expect(
      live.run('creates', 'snooze_thread', { thread_id: THREADS.roof.id, until: '2020-01-01T00:00:00Z' }),
    ).rejects.toThrow(/Snooze Until: must be in the future/);
  });
});

describe('analyze_thread, live', () => {
  it('twice gives one analysis, the one the service then holds', async () => {
    const analysis = await live.twice('analyze_thread', { thread_id: THREADS.lunch.id });
    expect(analysis).toMatchObject({ thread_id: THREADS.lunch.id });
    expect(await live.service.emailThreads.getAnalysis(THREADS.lunch.id)).toEqual(analysis);
  });
});
