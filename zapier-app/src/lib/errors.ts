/**
 * Service errors as Zapier errors: each message says what to do in words a Zap builder understands, and
 * carries the service's code (Zapier shows both). A rate limit becomes Zapier's `ThrottledError` (Zapier
 * retries later) and a rejected session token its `RefreshAuthError` (Zapier renews the token and reruns).
 * Zapier's own errors, raised inside `z.request` and wrapped by the client as a connection failure, pass
 * through unchanged.
 */
import {
  AuthenticationError,
  ConnectionError,
  IdempotencyConflictError,
  IdempotencyInProgressError,
  InsufficientScopeError,
  MailboxNotConnectedError,
  MailboxReauthRequiredError,
  NotFoundError,
  RateLimitedError,
  SubscriptionRequiredError,
  ThreadworkError,
  TimeoutError,
  ValidationError,
  withoutUrlSecrets,
} from '@threadwork/shared/light';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { DEDUPE_KEY } from './idempotency.ts';

const ZAPIER_ERROR_NAMES = new Set([
  'AppError',
  'ThrottledError',
  'RefreshAuthError',
  'ExpiredAuthError',
  'HaltedError',
  'ResponseError',
  'StopRequestError',
]);

/** What messages need of the step: each input's label (and type), and the values the user gave. */
export interface ErrorContext {
  labels: Record<string, string>;
  types?: Record<string, string | undefined>;
  inputs: Record<string, unknown>;
}

const NO_CONTEXT: ErrorContext = { labels: {}, inputs: {} };

/** The scope that sending email needs, and what a user does to get a key with it (docs/zapier-actions.md). */
export const SEND_EMAIL_SCOPE = 'email.send';
export const SEND_EMAIL_KEY_STEPS =
  'Sending email needs an API key with the "Send email" permission, which a key only has when it is ticked at ' +
  'creation. Create a new API key with "Send email" ticked on the service\'s keys page (the console\'s /keys page ' +
  "when you run the service yourself, or the extension's API tab when the extension's own key has that " +
  'permission), then reconnect this Zapier connection with the new key: its API key, secret and name.';

/** The error to throw for `error`: a Zapier error with a human message, or `error` itself when it is one. */
export function toZapierError(z: ZObject, error: unknown, context: ErrorContext = NO_CONTEXT): Error {
  const zapierError = zapierCause(error);
  if (zapierError !== undefined) return zapierError;
  if (!(error instanceof ThreadworkError)) {
    return error instanceof Error ? new Error(redact(error.message)) : new Error(redact(String(error)));
  }
  const status = error.status;
  const fail = (message: string) => new z.errors.Error(redact(message), error.code ?? error.name, status);
  if (error instanceof AuthenticationError) return new z.errors.RefreshAuthError(redact(error.message));
  if (error instanceof RateLimitedError) {
    return new z.errors.ThrottledError(
      'The service is rate limiting requests; Zapier will retry this step later.',
      error.retryAfter,
    );
  }
  if (error instanceof IdempotencyInProgressError) {
    // Only "Only Once Per" keys survive into a later run, so only then may Zapier run the step again.
    return typeof context.inputs[DEDUPE_KEY] === 'string' && context.inputs[DEDUPE_KEY] !== ''
      ? new z.errors.ThrottledError('The same step is still running on the service; retrying shortly.', 5)
      : fail(
          'The service is still carrying out this step and did not answer in time. Check in the service ' +
            'whether it took effect before running the step again.',
        );
  }
  if (error instanceof SubscriptionRequiredError) {
    return fail(
      'This team has no active paid subscription. Ask a team admin to renew the plan, then run the step again.',
    );
  }
  if (error instanceof InsufficientScopeError) {
    const scopes = scopesOf(error.details);
    if (scopes.includes(SEND_EMAIL_SCOPE)) return fail(SEND_EMAIL_KEY_STEPS);
    const named = scopes.length === 0 ? '' : ` "${scopes.join('", "')}"`;
    return fail(
      `The connected API key lacks the permission${named} this step needs. Create an API key that has it on ` +
        "the service's keys page (or the extension's API tab), then reconnect this Zapier connection with it.",
    );
  }
  if (error instanceof MailboxNotConnectedError) {
    return fail(
      'No mailbox is connected to this account. Connect your mailbox in the extension, then run the step again.',
    );
  }
  if (error instanceof MailboxReauthRequiredError) {
    return fail(
      'Your mailbox connection has expired. Reconnect your mailbox in the extension, then run the step again.',
    );
  }
  if (error instanceof NotFoundError) return fail(notFoundMessage(error.message, context));
  if (error instanceof IdempotencyConflictError) {
    const label = context.labels[DEDUPE_KEY] ?? 'Only Once Per';
    return fail(
      `${label}: this value has already been used by this action within the last 24 hours, by runs with ` +
        `other inputs or failed attempts. Map a value unique to each run into ${label}, or leave it empty.`,
    );
  }
  if (error instanceof ValidationError) return fail(validationMessage(error, context));
  if (error instanceof TimeoutError) return fail('The service did not answer in time. Try the step again.');
  if (error instanceof ConnectionError) {
    return fail('Could not reach the service. Check the Service URL of the connection, then try again.');
  }
  return fail(error.message);
}

/** Wraps a perform function so that every error it throws goes through `toZapierError`. */
export function withZapierErrors<B extends Bundle, R>(
  perform: (z: ZObject, bundle: B) => Promise<R>,
  context?: (bundle: B) => ErrorContext,
): (z: ZObject, bundle: B) => Promise<R> {
  return async (z, bundle) => {
    try {
      return await perform(z, bundle);
    } catch (error) {
      throw withoutSecrets(toZapierError(z, error, context?.(bundle)), bundle);
    }
  };
}

/** The connection's secrets (API key and secret, session token), which no message may show. */
const SECRET_FIELDS = ['api_key', 'api_secret', 'sessionKey'];

/** `error` with every secret of the connection cut out of its message (and URLs without their query). */
export function withoutSecrets<E extends Error>(error: E, bundle: Bundle): E {
  let message = redact(error.message);
  for (const field of SECRET_FIELDS) {
    const secret = bundle.authData?.[field];
    if (typeof secret === 'string' && secret.trim().length >= 4)
      message = message.split(secret.trim()).join('…');
  }
  if (message !== error.message) {
    try {
      error.message = message;
    } catch {
      // A frozen error keeps its message; ours never are.
    }
  }
  return error;
}

/** Text safe to show (every URL without its query and user:password part): every message the app makes passes through here. */
export const redact: (text: string) => string = withoutUrlSecrets;

/**
 * "List `lst_x` was not found, or this account cannot see it: pick it again from List." The input is the
 * one whose value the service's message names (it says "<thing> <id> was not found").
 */
function notFoundMessage(message: string, context: ErrorContext): string {
  for (const [key, value] of Object.entries(context.inputs)) {
    const label = context.labels[key];
    if (label === undefined || key === DEDUPE_KEY) continue;
    for (const id of Array.isArray(value) ? value : [value]) {
      if (typeof id !== 'string' || id.trim() === '' || !message.includes(id.trim())) continue;
      return `${label} \`${id.trim()}\` was not found, or this account cannot see it: pick it again from ${label}.`;
    }
  }
  const what = /^(.+?) (\S+) was not found/.exec(message);
  if (what?.[1] !== undefined && what[2] !== undefined) {
    const thing = what[1].charAt(0).toUpperCase() + what[1].slice(1);
    return `${thing} \`${what[2]}\` was not found, or this account cannot see it. Check the step's inputs.`;
  }
  return `Not found, or this account cannot see it: ${message}. Check the step's inputs.`;
}

/** "Due Date: use a date like 2026-03-01 or 'next Friday 5pm'": each problem by the input's label. */
function validationMessage(error: ThreadworkError, context: ErrorContext): string {
  const details = Array.isArray(error.details) ? error.details : [];
  const problems = details.map((detail) => {
    if (typeof detail !== 'object' || detail === null) return plainWords(String(detail), undefined);
    const { path, message } = detail as { path?: unknown; message?: unknown };
    const key = inputKeyOf(String(path ?? ''), context);
    const label = key === undefined ? undefined : (context.labels[key] ?? undefined);
    const type = key === undefined ? undefined : context.types?.[key];
    const words = byLabels(plainWords(String(message ?? 'is not valid'), type), context);
    if (label !== undefined) return `${label}: ${words}`;
    const where = String(path ?? '');
    // A problem of the whole step ("send after_task_id or position") names its inputs by their labels.
    return where === '' || where === '(root)'
      ? capitalize(words.replace(/^send /, 'fill in '))
      : `${humanPath(where)}: ${words}`;
  });
  if (problems.length === 0) return plainWords(error.message, undefined);
  return problems.join('; ');
}

/** `message` with every input key it names replaced by that input's label. */
function byLabels(message: string, context: ErrorContext): string {
  let text = message;
  for (const [key, label] of Object.entries(context.labels)) {
    text = text.replace(new RegExp(`\\b${key}\\b`, 'g'), label);
  }
  return text;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The input a service path points at: `due_at`, `to.1` → `to`, v1's `assigneeEmail` → `assignee_email`. */
function inputKeyOf(path: string, context: ErrorContext): string | undefined {
  const first = path.split(/[.[]/)[0] ?? '';
  const snake = first.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const aliases: Record<string, string> = { item_id: 'task_id', custom_fields: 'custom_fields' };
  for (const candidate of [first, snake, aliases[snake]]) {
    if (candidate !== undefined && candidate in context.labels) return candidate;
  }
  return undefined;
}

/** `team_id` → "Team", `custom_fields.0.value` → "Custom Fields Value". */
function humanPath(path: string): string {
  if (/[A-Z ]/.test(path)) return path; // already a name, e.g. a custom field's
  const words = path.split(/[._[\]]+/).filter((word) => word !== '' && !/^\d+$/.test(word));
  if (words.length > 1 && words.at(-1) === 'id') words.pop();
  if (words.length === 0) return 'Input';
  return words.map(capitalize).join(' ');
}

const DATE_ADVICE = "use a date like 2026-03-01 or 'next Friday 5pm'";

/** A service or schema message in words a Zap builder reads (no "ISO", no schema jargon). */
function plainWords(message: string, type: string | undefined): string {
  if (/^required$/i.test(message)) return 'is required';
  // A date that cannot be read (not one in the past, say: that message says what is wrong already).
  const aboutTime = /\b(future|past|before|after|later|earlier)\b/i.test(message);
  if (!aboutTime && (type === 'datetime' || /\b(date|datetime|iso)\b/i.test(message))) return DATE_ADVICE;
  if (/\bemail\b|\baddress\b/i.test(message)) return 'use an email address like bob@example.com';
  return message.replace(/\bISO[ -]?8601\b ?|\bISO\b ?/g, '');
}

/** A Zapier error itself (of one of `names`), or the one a client error wraps as its cause. */
export function zapierCause(
  error: unknown,
  names: ReadonlySet<string> = ZAPIER_ERROR_NAMES,
): Error | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (names.has(current.name)) return current;
    current = current.cause;
  }
  return undefined;
}

function scopesOf(details: unknown): string[] {
  if (typeof details === 'object' && details !== null) {
    const record = details as Record<string, unknown>;
    const scopes = record['required_scopes'] ?? record['missing_scopes'];
    if (Array.isArray(scopes)) return scopes.map(String);
    if (typeof record['scope'] === 'string') return [record['scope']];
  }
  return [];
}
