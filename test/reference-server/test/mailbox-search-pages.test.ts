// Search over a mailbox larger than one read batch: every page in order, nothing twice, nothing lost,
// whether the pre-filter leaves few candidates, all of them, or there is no pre-filter (index order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { startTestServer, type TestServer, typedClient } from './helpers/server.ts';

const SECRET = 'tw_test_search_pages_0123456789abc';
const COUNT = 2100;
const BASE = new Date('2026-01-01T00:00:00Z').getTime();
const ada = { email: 'ada@example.com', name: 'Ada' };

// Thread i is dated i minutes after BASE, except every 7th, which shares its time with the one before
// (ties are broken by id); every 50th has no date at all (undated threads come last).
const threads = Array.from({ length: COUNT }, (_, i) => {
  const id = (0x18c0000000000000n + BigInt(i)).toString(16);
  const minute = i % 7 === 0 && i > 0 ? i - 1 : i;
  return {
    id,
    messages: [
      {
        id,
        from: { email: `sender${i % 10}@example.com`, name: null },
        to: [ada],
        subject: `${i % 2 === 0 ? 'even' : 'odd'} thread ${i}`,
        date: i % 50 === 0 ? null : new Date(BASE + minute * 60_000).toISOString(),
        body_text: i % 300 === 0 ? 'a rare word: zephyr' : 'nothing to see',
        labels: ['INBOX', 'UNREAD'],
      },
    ],
  };
});

const seed = {
  users: [{ id: 'usr_ada', email: ada.email, display_name: ada.name }],
  mailboxes: [{ user_id: 'usr_ada', email_address: ada.email, threads }],
  api_keys: [
    {
      id: 'key_ada',
      user_id: 'usr_ada',
      type: 'v2',
      name: 'ci',
      secret: SECRET,
      scopes: ['email.metadata.read'],
    },
  ],
} satisfies SeedInput;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed });
});
afterAll(() => server.close());

/** The expected order: newest first by date (undated last), ties by id descending. */
function expected(filter: (i: number) => boolean): string[] {
  return threads
    .map((thread, i) => ({
      i,
      id: thread.id,
      time: thread.messages[0]?.date ? Date.parse(thread.messages[0].date) : -1,
    }))
    .filter(({ i }) => filter(i))
    .sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1))
    .map(({ id }) => id);
}

async function walk(q: string): Promise<string[]> {
  const client = typedClient(server, { apiKey: SECRET });
  const ids: string[] = [];
  for await (const thread of client.emailThreads.search({ q, limit: 200 })) ids.push(thread.thread_id);
  return ids;
}

describe('GET /email-threads across pages', () => {
  it('walks every thread when nothing is pre-filtered', async () => {
    expect(await walk('')).toEqual(expected(() => true));
  });

  it('walks candidates when the pre-filter keeps every thread', async () => {
    expect(await walk('is:unread')).toEqual(expected(() => true));
  });

  it('walks few candidates', async () => {
    expect(await walk('subject:even')).toEqual(expected((i) => i % 2 === 0));
    expect(await walk('zephyr')).toEqual(expected((i) => i % 300 === 0));
  });

  it('matches exactly after the pre-filter: substrings are not words', async () => {
    // `sender1` is a substring of no other sender here, but `thread 1` is of `thread 10`…
    expect(await walk('subject:"thread 1"')).toEqual(expected((i) => i === 1));
    expect(await walk('from:sender5 OR zephyr')).toEqual(expected((i) => i % 10 === 5 || i % 300 === 0));
  });
});
