import { describe, expect, it } from 'vitest';
import { ServiceError } from '../src/domain/errors.ts';
import {
  ageThreshold,
  compileQuery,
  indexMessage,
  parseDay,
  parseSearchQuery,
  type SearchableMessage,
  type SearchContext,
} from '../src/domain/mailbox/search.ts';

const NOW = new Date('2026-03-15T12:00:00Z');

const context: SearchContext = {
  now: NOW,
  ownerEmail: 'ada@example.com',
  labels: [
    { id: 'Label_1', name: 'Clients' },
    { id: 'Label_2', name: 'Client Work/Roofing' },
  ],
};

function message(overrides: Partial<SearchableMessage> = {}): SearchableMessage {
  return {
    from: { email: 'bob@stone.test', name: 'Bob Stone' },
    to: [{ email: 'ada@example.com', name: 'Ada Lovelace' }],
    cc: [],
    subject: 'Quote for the roof',
    body_text: 'Hello Ada, here is the quote you asked for. Regards, Bob',
    body_html: null,
    date: '2026-03-10T09:00:00Z',
    labels: ['INBOX', 'UNREAD'],
    attachment_count: 0,
    ...overrides,
  };
}

function matches(query: string, candidate: SearchableMessage, at: Date = NOW): boolean {
  const compiled = compileQuery(parseSearchQuery(query), { ...context, now: at });
  return compiled.matchesThread([indexMessage(candidate)]);
}

function syntaxErrorOf(query: string): ServiceError {
  try {
    parseSearchQuery(query);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error(`expected "${query}" to be rejected`);
}

describe('words and phrases', () => {
  it('matches everything for an empty query', () => {
    expect(matches('', message())).toBe(true);
    expect(matches('   ', message())).toBe(true);
  });

  it('matches whole words case-insensitively in the subject, body and participants', () => {
    expect(matches('ROOF', message())).toBe(true);
    expect(matches('regards', message())).toBe(true);
    expect(matches('stone', message())).toBe(true);
    expect(matches('lovelace', message())).toBe(true);
    expect(matches('roo', message())).toBe(false);
    expect(matches('gutter', message())).toBe(false);
  });

  it('requires every word, each anywhere in the message', () => {
    expect(matches('roof regards', message())).toBe(true);
    expect(matches('roof gutter', message())).toBe(false);
  });

  it('matches a quoted phrase only as consecutive words', () => {
    expect(matches('"the quote you asked"', message())).toBe(true);
    expect(matches('"quote the"', message())).toBe(false);
    // An unterminated quote runs to the end of the query.
    expect(matches('"asked for', message())).toBe(true);
  });

  it('matches an address typed as a word', () => {
    expect(matches('bob@stone.test', message())).toBe(true);
    expect(matches('bob@other.test', message())).toBe(false);
  });

  it('searches the text of an HTML-only body', () => {
    const html = message({ body_text: null, body_html: '<p>Invoice <b>attached</b></p>' });
    expect(matches('"invoice attached"', html)).toBe(true);
    expect(matches('p', html)).toBe(false);
  });

  it('treats unknown operators as words and ignores punctuation-only terms', () => {
    const timed = message({ body_text: 'meet at 10:30, foo:bar' });
    expect(matches('10:30', timed)).toBe(true);
    expect(matches('foo:bar', timed)).toBe(true);
    expect(matches('!!! - roof', timed)).toBe(true);
  });

  it('treats a lower-case "or" as a word', () => {
    expect(matches('roof or gutter', message())).toBe(false);
    expect(matches('roof or', message({ body_text: 'this or that' }))).toBe(true);
  });
});

describe('address operators', () => {
  it('from: matches the sender by name, address or domain, and nobody else', () => {
    expect(matches('from:bob', message())).toBe(true);
    expect(matches('from:bob@stone.test', message())).toBe(true);
    expect(matches('from:stone.test', message())).toBe(true);
    expect(matches('from:ada', message())).toBe(false);
    expect(matches('FROM:"Bob Stone"', message())).toBe(true);
  });

  it('to: matches direct and copied recipients; cc: only copied ones', () => {
    const copied = message({ cc: [{ email: 'carol@example.com', name: null }] });
    expect(matches('to:ada', copied)).toBe(true);
    expect(matches('to:carol', copied)).toBe(true);
    expect(matches('cc:carol', copied)).toBe(true);
    expect(matches('cc:ada', copied)).toBe(false);
    expect(matches('to:bob', copied)).toBe(false);
  });

  it('me stands for the mailbox owner', () => {
    expect(matches('to:me', message())).toBe(true);
    expect(matches('from:me', message())).toBe(false);
    expect(matches('from:me', message({ from: { email: 'ADA@example.com', name: null } }))).toBe(true);
  });

  it('subject: looks only at the subject, as a word, phrase or group', () => {
    expect(matches('subject:roof', message())).toBe(true);
    expect(matches('subject:regards', message())).toBe(false);
    expect(matches('subject:"for the roof"', message())).toBe(true);
    expect(matches('subject:"the for"', message())).toBe(false);
    expect(matches('subject:(roof quote)', message())).toBe(true);
    expect(matches('subject:(roof regards)', message())).toBe(false);
    expect(matches('subject:(gutter OR roof)', message())).toBe(true);
  });
});

describe('labels and states', () => {
  it('label: matches by id or name, case-insensitively, with dashes for spaces and slashes', () => {
    const labelled = message({ labels: ['INBOX', 'Label_1', 'Label_2'] });
    expect(matches('label:clients', labelled)).toBe(true);
    expect(matches('label:Label_1', labelled)).toBe(true);
    expect(matches('label:client-work-roofing', labelled)).toBe(true);
    expect(matches('label:"Client Work/Roofing"', labelled)).toBe(true);
    expect(matches('label:clients', message())).toBe(false);
    expect(matches('label:inbox', message())).toBe(true);
    // A label the mailbox does not have matches nothing.
    expect(matches('label:nonexistent', labelled)).toBe(false);
  });

  it('in: names a system label', () => {
    expect(matches('in:inbox', message())).toBe(true);
    expect(matches('in:sent', message())).toBe(false);
    expect(matches('in:sent', message({ labels: ['SENT'] }))).toBe(true);
    expect(matches('in:clients', message({ labels: ['Label_1'] }))).toBe(true);
  });

  it('leaves Trash and Spam out unless the query asks for them', () => {
    const trashed = message({ labels: ['TRASH'] });
    const spam = message({ labels: ['SPAM'] });
    expect(matches('roof', trashed)).toBe(false);
    expect(matches('roof', spam)).toBe(false);
    expect(matches('in:trash', trashed)).toBe(true);
    expect(matches('label:spam', spam)).toBe(true);
    expect(matches('in:trash', spam)).toBe(false);
    expect(matches('roof in:anywhere', trashed)).toBe(true);
    expect(matches('in:anywhere', spam)).toBe(true);
  });

  it('is:unread, is:read and is:starred follow the message labels', () => {
    expect(matches('is:unread', message())).toBe(true);
    expect(matches('is:read', message())).toBe(false);
    expect(matches('is:read', message({ labels: ['INBOX'] }))).toBe(true);
    expect(matches('is:starred', message())).toBe(false);
    expect(matches('is:starred', message({ labels: ['STARRED'] }))).toBe(true);
  });

  it('has:attachment needs at least one attachment', () => {
    expect(matches('has:attachment', message())).toBe(false);
    expect(matches('has:attachment', message({ attachment_count: 2 }))).toBe(true);
  });
});

describe('dates', () => {
  it('after: includes its day and before: excludes it (UTC days), in either notation', () => {
    const onThe10th = message({ date: '2026-03-10T00:00:00Z' });
    expect(matches('after:2026/03/10', onThe10th)).toBe(true);
    expect(matches('after:2026-03-11', onThe10th)).toBe(false);
    expect(matches('before:2026/03/10', onThe10th)).toBe(false);
    expect(matches('before:2026-3-11', onThe10th)).toBe(true);
    expect(matches('after:2026/03/01 before:2026/04/01', onThe10th)).toBe(true);
  });

  it('date operators never match a message without a date', () => {
    const undated = message({ date: null });
    expect(matches('after:2000/01/01', undated)).toBe(false);
    expect(matches('before:2100/01/01', undated)).toBe(false);
    expect(matches('newer_than:100y', undated)).toBe(false);
  });

  it('newer_than: and older_than: count back from the injected clock', () => {
    const fiveDaysOld = message({ date: '2026-03-10T12:00:00Z' });
    expect(matches('newer_than:6d', fiveDaysOld)).toBe(true);
    expect(matches('newer_than:4d', fiveDaysOld)).toBe(false);
    expect(matches('older_than:4d', fiveDaysOld)).toBe(true);
    expect(matches('older_than:6d', fiveDaysOld)).toBe(false);
    expect(matches('newer_than:1m', fiveDaysOld)).toBe(true);
    expect(matches('older_than:1y', fiveDaysOld)).toBe(false);
    // The same message, seen two months later.
    expect(matches('older_than:1m', fiveDaysOld, new Date('2026-05-15T12:00:00Z'))).toBe(true);
    expect(matches('NEWER_THAN:2M', fiveDaysOld, new Date('2026-05-09T12:00:00Z'))).toBe(true);
  });

  it('months and years are calendar months and years', () => {
    expect(new Date(ageThreshold(NOW, 1, 'm')).toISOString()).toBe('2026-02-15T12:00:00.000Z');
    expect(new Date(ageThreshold(NOW, 2, 'y')).toISOString()).toBe('2024-03-15T12:00:00.000Z');
    expect(new Date(ageThreshold(NOW, 3, 'd')).toISOString()).toBe('2026-03-12T12:00:00.000Z');
  });

  it('parses real days only', () => {
    expect(parseDay('2026/02/28')).toBe(Date.UTC(2026, 1, 28));
    expect(parseDay('2026-02-30')).toBeNull();
    expect(parseDay('2026/13/01')).toBeNull();
    expect(parseDay('28/02/2026')).toBeNull();
  });
});

describe('negation, OR and grouping', () => {
  it('negates any term with a leading dash', () => {
    expect(matches('-gutter', message())).toBe(true);
    expect(matches('-roof', message())).toBe(false);
    expect(matches('-from:bob', message())).toBe(false);
    expect(matches('-"the roof"', message())).toBe(false);
    expect(matches('-is:unread', message())).toBe(false);
    expect(matches('-(gutter OR roof)', message())).toBe(false);
    expect(matches('-(gutter OR chimney)', message())).toBe(true);
    // A dash inside a word is part of the word.
    expect(matches('e-mail', message({ body_text: 'send an e-mail' }))).toBe(true);
  });

  it('OR needs one side to match, and binds tighter than the implicit AND (as Gmail)', () => {
    expect(matches('gutter OR roof', message())).toBe(true);
    expect(matches('gutter OR chimney', message())).toBe(false);
    expect(parseSearchQuery('a b OR c')).toEqual({
      kind: 'and',
      terms: [
        { kind: 'text', field: 'any', words: ['a'] },
        {
          kind: 'or',
          terms: [
            { kind: 'text', field: 'any', words: ['b'] },
            { kind: 'text', field: 'any', words: ['c'] },
          ],
        },
      ],
    });
    expect(matches('gutter roof OR chimney', message())).toBe(false);
    expect(matches('(gutter roof) OR chimney', message())).toBe(false);
    expect(matches('(quote roof) OR chimney', message())).toBe(true);
  });

  it('accepts an explicit AND and braces as an OR group', () => {
    expect(matches('roof AND quote', message())).toBe(true);
    expect(matches('roof AND gutter', message())).toBe(false);
    expect(matches('{gutter roof}', message())).toBe(true);
    expect(matches('{gutter chimney}', message())).toBe(false);
    expect(matches('from:bob {in:sent is:starred}', message())).toBe(false);
  });
});

describe('thread semantics', () => {
  const fromBob = message();
  const reply = message({
    from: { email: 'ada@example.com', name: 'Ada Lovelace' },
    to: [{ email: 'bob@stone.test', name: 'Bob Stone' }],
    subject: 'Re: Quote for the roof',
    body_text: 'Thanks, that works',
    labels: ['SENT'],
  });
  const threadMatches = (query: string, messages: SearchableMessage[]) =>
    compileQuery(parseSearchQuery(query), context).matchesThread(messages.map(indexMessage));

  it('matches a thread when any one message matches the whole query', () => {
    expect(threadMatches('thanks', [fromBob, reply])).toBe(true);
    expect(threadMatches('from:me', [fromBob, reply])).toBe(true);
    // Each message is judged on its own: no single message is both from Ada and unread.
    expect(threadMatches('from:me is:unread', [fromBob, reply])).toBe(false);
  });

  it('ignores trashed messages of a thread unless asked', () => {
    const trashedReply = { ...reply, labels: ['TRASH'] };
    expect(threadMatches('thanks', [fromBob, trashedReply])).toBe(false);
    expect(threadMatches('roof', [fromBob, trashedReply])).toBe(true);
    expect(threadMatches('thanks in:anywhere', [fromBob, trashedReply])).toBe(true);
  });
});

describe('malformed queries are a 400 naming q', () => {
  it.each([
    ['(roof', '"(" is never closed'],
    ['roof)', '")" has no matching "("'],
    ['()', 'empty parentheses'],
    ['{roof', '"{" is never closed'],
    ['OR roof', 'OR needs a term on each side'],
    ['roof OR', 'OR needs a term on each side'],
    ['roof OR OR gutter', 'OR needs a term on each side'],
    ['AND roof', 'AND needs a term on each side'],
    ['from:', 'from: needs a value'],
    ['from:"!!"', 'has no words'],
    ['is:happy', 'is:happy is not supported'],
    ['has:pdf', 'has:pdf is not supported'],
    ['after:soon', 'after:soon is not a date'],
    ['before:2026-02-30', 'is not a date'],
    ['newer_than:5x', 'newer_than:5x is not an age'],
    ['older_than:d', 'is not an age'],
  ])('%s', (query, expected) => {
    const error = syntaxErrorOf(query);
    expect(error.code).toBe('validation_error');
    expect(error.status).toBe(400);
    expect(error.message).toContain(expected);
    expect(error.details).toEqual([{ path: 'q', message: expect.stringContaining(expected) }]);
  });
});
