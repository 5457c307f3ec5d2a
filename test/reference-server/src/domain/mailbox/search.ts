// Gmail search syntax for the local mailbox: a parser from the query string to a tree, and a matcher
// that evaluates the tree against one message. A thread matches when any of its messages matches
// (Gmail's semantics), and messages in Trash or Spam are left out unless the query asks for them.
//
// Grammar (as Gmail: OR binds tighter than the implicit AND, so `a b OR c` is `a AND (b OR c)`):
//   query   := and
//   and     := or ( ['AND'] or )*
//   or      := unary ( 'OR' unary )*
//   unary   := '-' unary | primary
//   primary := '(' and ')' | '{' unary* '}' | word | "phrase" | op:value | op:"phrase" | op:( and )
//
// Decisions where Gmail is lenient or silent:
// - An unknown operator (`foo:bar`, `10:30`, `re:x`) is plain text, as in Gmail.
// - A known operator with a value it cannot use (`after:soon`, `is:happy`, `from:`), an unbalanced
//   parenthesis or brace, an empty group and an `OR`/`AND` without a term on each side are errors.
// - Words match whole words (case-insensitive), not substrings: `quote` does not find `quotes`.
//   A word with punctuation (`bob@stone.test`) matches its words in sequence; a word made only of
//   punctuation is ignored. An unterminated quote runs to the end of the query.
// - Dates are UTC days: `after:D` keeps messages from the start of D on, `before:D` those before it.
import { invalidField } from '../errors.ts';
import { SYSTEM_LABELS } from '../system-labels.ts';

/** A field that text terms search in; `any` is subject, body and every participant. */
export type TextField = 'any' | 'from' | 'to' | 'cc' | 'subject';

export type QueryNode =
  | { kind: 'all' }
  | { kind: 'and'; terms: QueryNode[] }
  | { kind: 'or'; terms: QueryNode[] }
  | { kind: 'not'; term: QueryNode }
  /** Words that must appear consecutively in one field value. */
  | { kind: 'text'; field: TextField; words: string[] }
  /** `from:me`, `to:me`, `cc:me`: the mailbox owner's address. */
  | { kind: 'me'; field: 'from' | 'to' | 'cc' }
  /** A system label by its fixed id (from `in:`, `is:`). */
  | { kind: 'label_id'; id: string }
  /** A label by id or name, as the user typed it (from `label:`, `in:`, `category:`). */
  | { kind: 'label'; name: string }
  /** `in:anywhere`: matches every message, Trash and Spam included. */
  | { kind: 'anywhere' }
  | { kind: 'has_attachment' }
  /** `after:` (at or after) and `before:` (strictly before) an instant, in epoch milliseconds. */
  | { kind: 'date'; cmp: 'on_or_after' | 'before'; at: number }
  /** `newer_than:` / `older_than:` an amount of days, months or years before the clock's now. */
  | { kind: 'age'; cmp: 'newer' | 'older'; amount: number; unit: 'd' | 'm' | 'y' };

// Lexer

type Token =
  | { type: 'word'; text: string; at: number }
  | { type: 'phrase'; text: string; at: number }
  | { type: 'op'; name: string; value: string; quoted: boolean; at: number }
  /** `op:(`: the group's terms follow up to the matching `)`. */
  | { type: 'op_group'; name: string; at: number }
  | { type: 'not' | 'or' | 'and' | 'lparen' | 'rparen' | 'lbrace' | 'rbrace'; at: number };

const OPERATORS: ReadonlySet<string> = new Set([
  'from',
  'to',
  'cc',
  'subject',
  'label',
  'category',
  'in',
  'is',
  'has',
  'after',
  'before',
  'newer',
  'older',
  'newer_than',
  'older_than',
]);

const STOP = /[\s(){}"]/;
const WORD = /[\p{L}\p{N}]+/gu;

/** The lower-case words of a text: runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

function syntaxError(message: string): Error {
  return invalidField('q', message);
}

function readQuoted(query: string, start: number): { text: string; end: number } {
  // `start` is the opening quote; an unterminated quote runs to the end.
  const close = query.indexOf('"', start + 1);
  const end = close === -1 ? query.length : close;
  return { text: query.slice(start + 1, end), end: close === -1 ? end : end + 1 };
}

function lex(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const char = query[i] as string;
    if (/\s/.test(char)) {
      i++;
    } else if (char === '(' || char === ')' || char === '{' || char === '}') {
      const type = ({ '(': 'lparen', ')': 'rparen', '{': 'lbrace', '}': 'rbrace' } as const)[char];
      tokens.push({ type, at: i });
      i++;
    } else if (char === '"') {
      const { text, end } = readQuoted(query, i);
      if (wordsOf(text).length > 0) tokens.push({ type: 'phrase', text, at: i });
      i = end;
    } else if (char === '-') {
      const next = query[i + 1];
      // A dash that starts a term negates it; a dash on its own is punctuation.
      if (next !== undefined && !/[\s)}]/.test(next)) tokens.push({ type: 'not', at: i });
      i++;
    } else {
      let end = i;
      while (end < query.length && !STOP.test(query[end] as string)) end++;
      const run = query.slice(i, end);
      const op = /^([A-Za-z_]+):(.*)$/s.exec(run);
      const name = op?.[1]?.toLowerCase();
      if (op && name !== undefined && OPERATORS.has(name)) {
        const value = op[2] ?? '';
        if (value !== '') {
          tokens.push({ type: 'op', name, value, quoted: false, at: i });
        } else if (query[end] === '"') {
          const quoted = readQuoted(query, end);
          tokens.push({ type: 'op', name, value: quoted.text, quoted: true, at: i });
          end = quoted.end;
        } else if (query[end] === '(') {
          tokens.push({ type: 'op_group', name, at: i });
          end++;
        } else {
          throw syntaxError(`${name}: needs a value (at character ${i + 1})`);
        }
      } else if (run === 'OR') {
        tokens.push({ type: 'or', at: i });
      } else if (run === 'AND') {
        tokens.push({ type: 'and', at: i });
      } else if (wordsOf(run).length > 0) {
        tokens.push({ type: 'word', text: run, at: i });
      }
      i = end;
    }
  }
  return tokens;
}

// Operator values

const IN_LABELS: Readonly<Record<string, string>> = {
  inbox: 'INBOX',
  sent: 'SENT',
  trash: 'TRASH',
  spam: 'SPAM',
  draft: 'DRAFT',
  drafts: 'DRAFT',
  starred: 'STARRED',
  important: 'IMPORTANT',
  unread: 'UNREAD',
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY/MM/DD` or `YYYY-MM-DD` (month and day may have one digit): the start of that UTC day. */
export function parseDay(value: string): number | null {
  const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = Date.UTC(year, month - 1, day);
  const date = new Date(at);
  // Rejects 2026-02-30 and month 13 rather than rolling them over.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return null;
  return at;
}

/** The instant `amount` days, months or years before `now` (calendar months and years, UTC). */
export function ageThreshold(now: Date, amount: number, unit: 'd' | 'm' | 'y'): number {
  if (unit === 'd') return now.getTime() - amount * DAY_MS;
  const at = new Date(now.getTime());
  if (unit === 'm') at.setUTCMonth(at.getUTCMonth() - amount);
  else at.setUTCFullYear(at.getUTCFullYear() - amount);
  return at.getTime();
}

function operatorNode(name: string, value: string, quoted: boolean): QueryNode {
  switch (name) {
    case 'from':
    case 'to':
    case 'cc':
    case 'subject': {
      if (name !== 'subject' && !quoted && value.toLowerCase() === 'me') return { kind: 'me', field: name };
      const words = wordsOf(value);
      if (words.length === 0) throw syntaxError(`${name}:${value} has no words to search for`);
      return { kind: 'text', field: name, words };
    }
    case 'label':
      return { kind: 'label', name: value };
    case 'category':
      return { kind: 'label', name: `category_${value}` };
    case 'in': {
      const lower = value.toLowerCase();
      if (lower === 'anywhere') return { kind: 'anywhere' };
      const id = IN_LABELS[lower];
      // Gmail also accepts any label after `in:`.
      return id ? { kind: 'label_id', id } : { kind: 'label', name: value };
    }
    case 'is': {
      const lower = value.toLowerCase();
      if (lower === 'unread') return { kind: 'label_id', id: 'UNREAD' };
      if (lower === 'read') return { kind: 'not', term: { kind: 'label_id', id: 'UNREAD' } };
      if (lower === 'starred') return { kind: 'label_id', id: 'STARRED' };
      if (lower === 'important') return { kind: 'label_id', id: 'IMPORTANT' };
      throw syntaxError(`is:${value} is not supported; use is:unread, is:read, is:starred or is:important`);
    }
    case 'has': {
      if (value.toLowerCase() === 'attachment') return { kind: 'has_attachment' };
      throw syntaxError(`has:${value} is not supported; use has:attachment`);
    }
    case 'after':
    case 'newer':
    case 'before':
    case 'older': {
      const at = parseDay(value);
      if (at === null) throw syntaxError(`${name}:${value} is not a date; write YYYY/MM/DD or YYYY-MM-DD`);
      return { kind: 'date', cmp: name === 'after' || name === 'newer' ? 'on_or_after' : 'before', at };
    }
    case 'newer_than':
    case 'older_than': {
      const match = /^(\d+)([dmy])$/i.exec(value);
      if (!match) {
        throw syntaxError(`${name}:${value} is not an age; write a number and d, m or y, e.g. ${name}:7d`);
      }
      const unit = (match[2] as string).toLowerCase() as 'd' | 'm' | 'y';
      return { kind: 'age', cmp: name === 'newer_than' ? 'newer' : 'older', amount: Number(match[1]), unit };
    }
    default:
      throw new Error(`operator ${name} has no meaning`);
  }
}

// Parser

/**
 * The limits of a query (docs/mailbox.md, "Search"): how deep parentheses, braces and negations may
 * nest, and how many distinct search terms it may hold (a repeated term counts once: `a a a` is `a`).
 * Past either, the query answers 400 naming the limit instead of costing the server without bound.
 */
export const MAX_QUERY_DEPTH = 32;
export const MAX_QUERY_TERMS = 500;

/** The terms of an AND or OR with repeats dropped (`a a` is `a`; order kept, so is the meaning). */
function distinct(terms: QueryNode[]): QueryNode[] {
  const seen = new Set<string>();
  return terms.filter((term) => {
    const key = JSON.stringify(term);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function and(terms: QueryNode[]): QueryNode {
  const unique = distinct(terms);
  if (unique.length === 0) return { kind: 'all' };
  return unique.length === 1 ? (unique[0] as QueryNode) : { kind: 'and', terms: unique };
}

function or(terms: QueryNode[]): QueryNode {
  const unique = distinct(terms);
  return unique.length === 1 ? (unique[0] as QueryNode) : { kind: 'or', terms: unique };
}

/** How many leaf terms a tree holds. */
function termCount(node: QueryNode): number {
  if (node.kind === 'and' || node.kind === 'or')
    return node.terms.reduce((sum, term) => sum + termCount(term), 0);
  if (node.kind === 'not') return termCount(node.term);
  return 1;
}

/** Parses a Gmail search query; an empty query matches everything. Throws a 400 on a malformed one. */
export function parseSearchQuery(query: string): QueryNode {
  const tokens = lex(query);
  let index = 0;
  let depth = 0;
  const peek = () => tokens[index];
  /** Parses one nested level (a group or a negation) within MAX_QUERY_DEPTH. */
  const nested = <T>(token: Token, parse: () => T): T => {
    if (++depth > MAX_QUERY_DEPTH) {
      throw syntaxError(
        `the query nests deeper than ${MAX_QUERY_DEPTH} levels of parentheses, braces and negations (${where(token)})`,
      );
    }
    const result = parse();
    depth--;
    return result;
  };
  const where = (token: Token | undefined) =>
    token ? `at character ${token.at + 1}` : 'at the end of the query';

  // `field` is the operator of an enclosing `op:( … )`: its words and phrases become that operator's.
  const parseAnd = (field: string | null, closer: 'rparen' | null): QueryNode => {
    const terms: QueryNode[] = [];
    for (;;) {
      const token = peek();
      if (token === undefined || token.type === closer) break;
      if (token.type === 'and') {
        const next = tokens[index + 1];
        if (terms.length === 0 || next === undefined || next.type === closer || next.type === 'and') {
          throw syntaxError(`AND needs a term on each side (${where(token)})`);
        }
        index++;
        continue;
      }
      terms.push(parseOr(field));
    }
    return and(terms);
  };

  const parseOr = (field: string | null): QueryNode => {
    const terms = [parseUnary(field)];
    while (peek()?.type === 'or') {
      const or = peek();
      index++;
      const next = peek();
      if (next === undefined || ['or', 'and', 'rparen', 'rbrace'].includes(next.type)) {
        throw syntaxError(`OR needs a term on each side (${where(or)})`);
      }
      terms.push(parseUnary(field));
    }
    return or(terms);
  };

  const parseUnary = (field: string | null): QueryNode => {
    const token = peek();
    if (token?.type === 'not') {
      index++;
      return nested(token, () => ({ kind: 'not', term: parseUnary(field) }));
    }
    return parsePrimary(field);
  };

  const parsePrimary = (field: string | null): QueryNode => {
    const token = peek();
    if (token === undefined) throw syntaxError('the query ends where a search term was expected');
    index++;
    switch (token.type) {
      case 'word':
      case 'phrase':
        if (field !== null) return operatorNode(field, token.text, token.type === 'phrase');
        return { kind: 'text', field: 'any', words: wordsOf(token.text) };
      case 'op':
        return operatorNode(token.name, token.value, token.quoted);
      case 'op_group':
      case 'lparen': {
        const inner = token.type === 'op_group' ? token.name : field;
        if (peek()?.type === 'rparen') throw syntaxError(`empty parentheses (${where(token)})`);
        const group = nested(token, () => parseAnd(inner, 'rparen'));
        if (peek()?.type !== 'rparen') throw syntaxError(`"(" is never closed (${where(token)})`);
        index++;
        return group;
      }
      case 'lbrace': {
        // Gmail's `{a b}` is `a OR b`.
        const terms: QueryNode[] = [];
        nested(token, () => {
          while (peek() !== undefined && peek()?.type !== 'rbrace') terms.push(parseUnary(field));
        });
        if (peek()?.type !== 'rbrace') throw syntaxError(`"{" is never closed (${where(token)})`);
        if (terms.length === 0) throw syntaxError(`empty braces (${where(token)})`);
        index++;
        return or(terms);
      }
      case 'rparen':
        throw syntaxError(`")" has no matching "(" (${where(token)})`);
      case 'rbrace':
        throw syntaxError(`"}" has no matching "{" (${where(token)})`);
      case 'or':
        throw syntaxError(`OR needs a term on each side (${where(token)})`);
      case 'and':
        throw syntaxError(`AND needs a term on each side (${where(token)})`);
      case 'not':
        throw new Error('unreachable: negation is parsed as a unary term');
    }
  };

  const root = parseAnd(null, null);
  if (index < tokens.length) throw syntaxError(`")" has no matching "(" (${where(peek())})`);
  const terms = termCount(root);
  if (terms > MAX_QUERY_TERMS) {
    throw syntaxError(
      `the query has ${terms} distinct search terms; at most ${MAX_QUERY_TERMS} are allowed (a repeated term counts once)`,
    );
  }
  return root;
}

// Matcher

export interface SearchableAddress {
  email: string;
  name: string | null;
}

/** What the matcher reads of a message. */
export interface SearchableMessage {
  from: SearchableAddress;
  to: readonly SearchableAddress[];
  cc: readonly SearchableAddress[];
  subject: string | null;
  body_text: string | null;
  body_html: string | null;
  date: string | null;
  labels: readonly string[];
  attachment_count: number;
}

/** A message with its words split out once, so one search can test it against many terms. */
export interface IndexedMessage {
  from: string[][];
  fromEmail: string;
  to: string[][];
  toEmails: string[];
  cc: string[][];
  ccEmails: string[];
  subject: string[];
  body: string[];
  /** Epoch milliseconds; null when the message has no date. */
  time: number | null;
  labels: ReadonlySet<string>;
  attachments: number;
}

/** The text of an HTML body, for messages without a plain-text part. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;/gi, "'");
}

const addressWords = (address: SearchableAddress) => [wordsOf(address.name ?? ''), wordsOf(address.email)];

/**
 * Splits a message into what the matcher compares. The body's words are split on first use: a query
 * about labels, dates or senders never pays for them.
 */
export function indexMessage(message: SearchableMessage): IndexedMessage {
  const time = message.date === null ? null : Date.parse(message.date);
  let body: string[] | undefined;
  return {
    from: addressWords(message.from),
    fromEmail: message.from.email.toLowerCase(),
    to: message.to.flatMap(addressWords),
    toEmails: message.to.map((address) => address.email.toLowerCase()),
    cc: message.cc.flatMap(addressWords),
    ccEmails: message.cc.map((address) => address.email.toLowerCase()),
    subject: wordsOf(message.subject ?? ''),
    get body() {
      body ??= wordsOf(
        message.body_text ?? (message.body_html === null ? '' : htmlToText(message.body_html)),
      );
      return body;
    },
    time: time === null || Number.isNaN(time) ? null : time,
    labels: new Set(message.labels),
    attachments: message.attachment_count,
  };
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return true;
  const last = haystack.length - needle.length;
  for (let start = 0; start <= last; start++) {
    let at = 0;
    while (at < needle.length && haystack[start + at] === needle[at]) at++;
    if (at === needle.length) return true;
  }
  return false;
}

export interface SearchContext {
  /** The clock `newer_than:`/`older_than:` count back from. */
  now: Date;
  /** The mailbox owner's address, for `from:me` and the like. */
  ownerEmail: string;
  /** The mailbox's labels (system labels need not be listed: their ids always resolve). */
  labels: readonly { id: string; name: string | null }[];
}

/** How Gmail writes a label name in a query: case-insensitive, spaces and slashes as dashes. */
const labelKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s/]+/g, '-');

export interface CompiledQuery {
  /** Whether a message satisfies the query (ignoring the Trash/Spam default). */
  matches(message: IndexedMessage): boolean;
  /** Whether a message is searched at all: Trash and Spam only when the query names them. */
  searchable(message: IndexedMessage): boolean;
  /** Gmail's thread semantics: any searchable message matches. */
  matchesThread(messages: readonly IndexedMessage[]): boolean;
}

/** Resolves a label as a query names it (id or name, any case) to the mailbox's label ids. */
export function labelResolver(
  labels: readonly { id: string; name: string | null }[],
): (name: string) => ReadonlySet<string> {
  const labelIds = new Map<string, Set<string>>();
  const addLabel = (key: string, id: string) => {
    const ids = labelIds.get(key) ?? new Set<string>();
    ids.add(id);
    labelIds.set(key, ids);
  };
  for (const label of [...SYSTEM_LABELS, ...labels]) {
    addLabel(labelKey(label.id), label.id);
    if (label.name !== null) addLabel(labelKey(label.name), label.id);
  }
  return (name) => labelIds.get(labelKey(name)) ?? new Set();
}

export function compileQuery(root: QueryNode, context: SearchContext): CompiledQuery {
  const resolve = labelResolver(context.labels);
  const owner = context.ownerEmail.toLowerCase();

  let includeTrash = false;
  let includeSpam = false;
  const notice = (ids: Iterable<string>) => {
    for (const id of ids) {
      if (id === 'TRASH') includeTrash = true;
      if (id === 'SPAM') includeSpam = true;
    }
  };
  const scan = (node: QueryNode): void => {
    if (node.kind === 'and' || node.kind === 'or') node.terms.forEach(scan);
    else if (node.kind === 'not') scan(node.term);
    else if (node.kind === 'label_id') notice([node.id]);
    else if (node.kind === 'label') notice(resolve(node.name));
    else if (node.kind === 'anywhere') includeTrash = includeSpam = true;
  };
  scan(root);

  const test = (node: QueryNode, message: IndexedMessage): boolean => {
    switch (node.kind) {
      case 'all':
      case 'anywhere':
        return true;
      case 'and':
        return node.terms.every((term) => test(term, message));
      case 'or':
        return node.terms.some((term) => test(term, message));
      case 'not':
        return !test(node.term, message);
      case 'text': {
        const has = (values: readonly string[][]) =>
          values.some((words) => containsSequence(words, node.words));
        switch (node.field) {
          case 'from':
            return has(message.from);
          // Gmail's to: also finds the copied recipients.
          case 'to':
            return has(message.to) || has(message.cc);
          case 'cc':
            return has(message.cc);
          case 'subject':
            return containsSequence(message.subject, node.words);
          case 'any':
            return (
              containsSequence(message.subject, node.words) ||
              containsSequence(message.body, node.words) ||
              has(message.from) ||
              has(message.to) ||
              has(message.cc)
            );
        }
        return false;
      }
      case 'me':
        if (node.field === 'from') return message.fromEmail === owner;
        if (node.field === 'to') return message.toEmails.includes(owner) || message.ccEmails.includes(owner);
        return message.ccEmails.includes(owner);
      case 'label_id':
        return message.labels.has(node.id);
      case 'label':
        for (const id of resolve(node.name)) if (message.labels.has(id)) return true;
        return false;
      case 'has_attachment':
        return message.attachments > 0;
      case 'date':
        if (message.time === null) return false;
        return node.cmp === 'on_or_after' ? message.time >= node.at : message.time < node.at;
      case 'age': {
        if (message.time === null) return false;
        const threshold = ageThreshold(context.now, node.amount, node.unit);
        return node.cmp === 'newer' ? message.time >= threshold : message.time < threshold;
      }
    }
  };

  const searchable = (message: IndexedMessage) =>
    (includeTrash || !message.labels.has('TRASH')) && (includeSpam || !message.labels.has('SPAM'));
  const matches = (message: IndexedMessage) => test(root, message);
  return {
    matches,
    searchable,
    matchesThread: (messages) => messages.some((message) => searchable(message) && matches(message)),
  };
}
