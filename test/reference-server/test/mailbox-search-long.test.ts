// Long search queries over HTTP, on SQLite and PostgreSQL: a query of any length and shape gets a real
// answer or a 400 validation_error naming the limit it passes, never a 5xx. (A thousand words of `a`
// once made SQLite refuse the search's SQL as too deep, and the service answered 500.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_DEPTH, MAX_QUERY_TERMS } from '../src/domain/mailbox/search.ts';
import { MAILBOX_NOW, mailboxSeed, THREADS } from './helpers/mailbox-fixtures.ts';
import { readAnswer, startTestServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: mailboxSeed, now: () => MAILBOX_NOW });
});
afterAll(() => server.close());

const words = (count: number, make: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => make(i));

async function search(q: string) {
  const answer = await readAnswer(await server.v2(`/email-threads?q=${encodeURIComponent(q)}&limit=200`));
  expect(answer.status, `${q.slice(0, 60)}… answered ${answer.status}`).toBeLessThan(500);
  return answer;
}

async function threadIds(q: string): Promise<string[]> {
  const answer = await search(q);
  expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
  return answer.body.data.map((thread: { thread_id: string }) => thread.thread_id);
}

async function refusal(q: string): Promise<string> {
  const answer = await search(q);
  expect(answer.status).toBe(400);
  expect(answer.body.error.code).toBe('validation_error');
  expect(answer.body.error.details[0].path).toBe('q');
  return answer.body.error.message;
}

describe('long search queries', () => {
  it('answers a thousand repeated words for real, like the one word', async () => {
    const one = await threadIds('quote');
    expect(one).toContain(THREADS.roof);
    expect(await threadIds(words(1000, () => 'quote').join(' '))).toEqual(one);
    expect(await threadIds(words(1000, () => 'a').join(' '))).toEqual(await threadIds('a'));
  });

  it('answers long OR chains, negations and quoted phrases for real', async () => {
    const noise = words(MAX_QUERY_TERMS - 1, (i) => `zz${i}`);
    expect(await threadIds([...noise, 'lunch'].join(' OR '))).toEqual(await threadIds('lunch'));
    expect(await threadIds(`{${[...noise.slice(0, 300), 'lunch'].join(' ')}}`)).toEqual(
      await threadIds('lunch'),
    );
    const negated = await threadIds(noise.map((word) => `-${word}`).join(' '));
    expect(negated).toEqual(await threadIds(''));
    expect(await threadIds(words(1000, () => '-quote').join(' '))).toEqual(await threadIds('-quote'));
    expect(await threadIds(words(800, () => '"the roof"').join(' '))).toEqual(await threadIds('"the roof"'));
    expect(await threadIds(words(1000, () => 'from:bob').join(' '))).toEqual(await threadIds('from:bob'));
    // Many distinct words that all must match: the SQL narrows on some, the matcher decides on all.
    const allWords = noise.slice(0, 200).map((word) => `-${word}`);
    expect(await threadIds(['quote', 'roof', ...allWords].join(' '))).toEqual(await threadIds('quote roof'));
  });

  it('refuses more distinct terms than the limit, naming it', async () => {
    const shapes = [
      words(1000, (i) => `w${i}`).join(' '),
      words(1000, (i) => `w${i}`).join(' OR '),
      words(MAX_QUERY_TERMS + 1, (i) => `-w${i}`).join(' '),
      words(900, (i) => `"w${i} x"`).join(' '),
      words(700, (i) => `from:w${i}`).join(' '),
    ];
    for (const q of shapes) expect(await refusal(q)).toContain(`at most ${MAX_QUERY_TERMS}`);
  });

  it('refuses nesting deeper than the limit, naming it', async () => {
    const deep = MAX_QUERY_DEPTH + 1;
    const shapes = [
      `${'('.repeat(1000)}a${')'.repeat(1000)}`,
      `${'-('.repeat(deep)}a${')'.repeat(deep)}`,
      `${'{'.repeat(deep)}a${'}'.repeat(deep)}`,
      `${'-'.repeat(deep)}a`,
    ];
    for (const q of shapes) expect(await refusal(q)).toContain(`${MAX_QUERY_DEPTH} levels`);
    const within = MAX_QUERY_DEPTH - 1;
    expect(await threadIds(`${'('.repeat(within)}lunch${')'.repeat(within)}`)).toEqual(
      await threadIds('lunch'),
    );
  });

  it('never answers 5xx for long queries of mixed shapes', async () => {
    const parts = [
      'a',
      'OR',
      '-b',
      '"c d"',
      'from:e',
      '(f',
      'g)',
      '{h',
      'i}',
      'AND',
      'label:x',
      'is:unread',
      '-',
    ];
    for (let seed = 1; seed <= 12; seed++) {
      const q = words(600, (i) => parts[(i * seed * 7 + seed) % parts.length] as string).join(' ');
      await search(q);
    }
  });
});
