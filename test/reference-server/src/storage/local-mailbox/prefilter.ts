// The SQL half of mailbox search: from a parsed Gmail query, a condition on `messages` that every
// message the matcher would accept also meets. The database narrows 10,000 threads to the few worth
// reading; the matcher in domain/mailbox/search.ts then decides exactly. A condition that cannot be written safely
// is left out (it keeps every message), never guessed. See docs/mailbox.md, "Search".
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { QueryNode, TextField } from '../../domain/mailbox/search.ts';

type Messages = ExpressionBuilder<Database, 'messages'>;

/** A condition on one message row; `true` keeps every message, `false` none. */
export type Prefilter = true | false | ((eb: Messages) => Expression<SqlBool>);

export interface PrefilterContext {
  mailboxId: string;
  /** The engine's case-insensitive pattern match (for ASCII, which is all it is used for). */
  like: 'like' | 'ilike';
  /** The mailbox owner's address, lower case (`from:me`). */
  owner: string;
  /** The label ids a `label:` name resolves to (none: the term matches nothing). */
  resolve(name: string): ReadonlySet<string>;
}

type TextColumn =
  | 'messages.subject'
  | 'messages.body_text'
  | 'messages.body_html'
  | 'messages.from_email'
  | 'messages.from_name'
  | 'messages.to'
  | 'messages.cc';

// Where each field's words are stored. The address lists are JSON text: JSON escapes only quotes,
// backslashes and control characters, so every word of a name or address stays a substring of it.
const COLUMNS: Readonly<Record<TextField, readonly TextColumn[]>> = {
  any: [
    'messages.subject',
    'messages.body_text',
    'messages.body_html',
    'messages.from_email',
    'messages.from_name',
    'messages.to',
    'messages.cc',
  ],
  from: ['messages.from_email', 'messages.from_name'],
  // Gmail's to: also finds the copied recipients.
  to: ['messages.to', 'messages.cc'],
  cc: ['messages.cc'],
  subject: ['messages.subject'],
};

// SQLite's LIKE folds only ASCII case, so only ASCII words are looked for; a word with other letters
// keeps every message.
const ASCII_WORD = /^[a-z0-9]+$/;

// The SQL stays small whatever the query: an AND keeps at most this many of its conditions (fewer
// conditions keep more messages, which is safe), and an OR of more than this many keeps every message.
// Each AND or OR is built as a balanced tree, as a chain of hundreds would pass SQLite's limit on
// expression depth (1000).
const MAX_BRANCHES = 16;

function balanced(
  conditions: readonly Exclude<Prefilter, boolean>[],
  join: 'and' | 'or',
): Exclude<Prefilter, boolean> {
  if (conditions.length === 1) return conditions[0] as Exclude<Prefilter, boolean>;
  const half = Math.ceil(conditions.length / 2);
  const left = balanced(conditions.slice(0, half), join);
  const right = balanced(conditions.slice(half), join);
  return (eb) => eb[join]([left(eb), right(eb)]);
}

function allOf(parts: Prefilter[]): Prefilter {
  if (parts.includes(false)) return false;
  const conditions = parts.filter((part): part is Exclude<Prefilter, boolean> => part !== true);
  if (conditions.length === 0) return true;
  return balanced(conditions.slice(0, MAX_BRANCHES), 'and');
}

function anyOf(parts: Prefilter[]): Prefilter {
  if (parts.includes(true)) return true;
  const conditions = parts.filter((part): part is Exclude<Prefilter, boolean> => part !== false);
  if (conditions.length === 0) return false;
  if (conditions.length > MAX_BRANCHES) return true;
  return balanced(conditions, 'or');
}

/** Words are letters and digits only, so they need no escaping inside a LIKE pattern. */
function containsWord(like: PrefilterContext['like'], column: TextColumn, word: string): Prefilter {
  return (eb) => eb(column, like, `%${word}%`);
}

// Not correlated with the outer row, so the database reads the label's messages once (by the
// message_labels_label index), not once per message.
function hasLabel(mailboxId: string, ids: ReadonlySet<string>): Prefilter {
  if (ids.size === 0) return false;
  return (eb) =>
    eb(
      'messages.id',
      'in',
      eb
        .selectFrom('message_labels as prefilter_labels')
        .select('prefilter_labels.message_id')
        .where('prefilter_labels.mailbox_id', '=', mailboxId)
        .where('prefilter_labels.label_id', 'in', [...ids]),
    );
}

/** The condition for `node`; `true` where no safe condition exists (negation, dates, ages). */
export function prefilterOf(node: QueryNode, context: PrefilterContext): Prefilter {
  switch (node.kind) {
    case 'and':
      return allOf(node.terms.map((term) => prefilterOf(term, context)));
    case 'or':
      return anyOf(node.terms.map((term) => prefilterOf(term, context)));
    case 'text':
      return allOf(
        node.words
          .filter((word) => ASCII_WORD.test(word))
          .map((word) =>
            anyOf(COLUMNS[node.field].map((column) => containsWord(context.like, column, word))),
          ),
      );
    case 'me': {
      // `_` and `%` in an address only widen the pattern; a backslash (PostgreSQL's LIKE escape) or a
      // non-ASCII letter could narrow it, so such an owner gets no condition.
      const owner = context.owner;
      if (!/^[\x21-\x5b\x5d-\x7e]+$/.test(owner)) return true;
      if (node.field === 'from') {
        return (eb) => eb(eb.fn('lower', [eb.ref('messages.from_email')]), '=', owner);
      }
      const columns: TextColumn[] = node.field === 'to' ? ['messages.to', 'messages.cc'] : ['messages.cc'];
      return anyOf(
        columns.map(
          (column): Prefilter =>
            (eb) =>
              eb(eb.fn('lower', [eb.ref(column)]), 'like', `%${owner}%`),
        ),
      );
    }
    case 'label_id':
      return hasLabel(context.mailboxId, new Set([node.id]));
    case 'label':
      return hasLabel(context.mailboxId, context.resolve(node.name));
    case 'has_attachment':
      return (eb) => eb('messages.attachment_count', '>', 0);
    // Negation, dates (stored with any offset, so not comparable as text) and ages: the matcher decides.
    case 'not':
    case 'date':
    case 'age':
    case 'all':
    case 'anywhere':
      return true;
  }
}
