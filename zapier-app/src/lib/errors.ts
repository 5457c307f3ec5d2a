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
  InvalidResponseError,
  MailboxNotConnectedError,
  MailboxReauthRequiredError,
  NotFoundError,
  RateLimitedError,
  SCOPE_GROUPS,
  SubscriptionRequiredError,
  ThreadworkError,
  TimeoutError,
  ValidationError,
  withoutUrlSecrets,
} from '@threadwork/shared/light';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { originOf } from './clients.ts';
import { DEDUPE_KEY } from './idempotency.ts';
import { existingRun, type Run, whyNoAnswer, writesThatMayHaveActed } from './run.ts';

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
  /** The connection's service origin, to point at its pages (the API keys page). */
  origin?: string | undefined;
  /** The run that failed: whether its writes may have acted (lib/run.ts). */
  run?: Run | undefined;
}

const NO_CONTEXT: ErrorContext = { labels: {}, inputs: {} };

/** The scope that sending email needs: opt-in, so a key has it only when it was ticked at creation. */
export const SEND_EMAIL_SCOPE = 'email.send';

/** "Send email" for `email.send`: the permission as the API keys pages show it. */
export function scopeLabel(scope: string): string {
  for (const group of SCOPE_GROUPS) {
    const found = group.scopes.find((entry) => entry.scope === scope);
    if (found !== undefined) return found.label;
  }
  return scope;
}

/** Where a user makes a key: the account's API keys page of their own service, or the extension's API tab. */
function keysPage(origin: string | undefined): string {
  return origin === undefined || origin === ''
    ? "in your account's API keys (or in the extension's API tab)"
    : `in your account's API keys at ${origin}/keys (or in the extension's API tab)`;
}

/** What to do when the key lacks `scopes`: tick them on a new key, then reconnect with it. */
export function missingPermissionMessage(scopes: string[], origin?: string): string {
  const labels = scopes.map((scope) => `"${scopeLabel(scope)}"`);
  const named = labels.length === 0 ? 'a permission' : `the ${labels.join(' and ')} permission`;
  const tick = labels.length === 0 ? 'the permission this step needs' : labels.join(' and ');
  const optIn = scopes.includes(SEND_EMAIL_SCOPE)
    ? ' A key has "Send email" only when it is ticked at creation.'
    : '';
  return (
    `The connected API key lacks ${named}${scopes.length === 0 ? '' : ` (${scopes.join(', ')})`}, which this step needs.${optIn} ` +
    `Create a key with ${tick} ticked ${keysPage(origin)}, then reconnect this Zapier connection with the new key: ` +
    'its API key, secret and name.'
  );
}

/** What a user reads when the service refuses the connection's key (deleted, revoked, or mistyped). */
export function revokedKeyMessage(origin?: string): string {
  return (
    "The service did not accept this connection's API key: this key may have been revoked: reconnect with a " +
    `current key. Create one ${keysPage(origin)}. If you have just typed the credentials, check the email, ` +
    'the key name, and the API key and secret.'
  );
}

/** The error to throw for `error`: a Zapier error with a human message, or `error` itself when it is one. */
export function toZapierError(z: ZObject, error: unknown, context: ErrorContext = NO_CONTEXT): Error {
  const zapierError = zapierCause(error);
  if (zapierError !== undefined) return zapierError;
  if (!(error instanceof ThreadworkError)) {
    return error instanceof Error ? new Error(redact(error.message)) : new Error(redact(String(error)));
  }
  const status = error.status;
  const fail = (message: string) =>
    new z.errors.Error(redact(withRunOutcome(message, context)), error.code ?? error.name, status);
  if (error instanceof AuthenticationError) {
    return new z.errors.RefreshAuthError(revokedKeyMessage(context.origin));
  }
  if (error instanceof RateLimitedError) {
    return new z.errors.ThrottledError(
      'The service is rate limiting requests; Zapier will retry this step later.',
      error.retryAfter,
    );
  }
  if (error instanceof IdempotencyInProgressError) {
    // Only "Only Once Per" keys survive into a later run, so only then may Zapier run the step again.
    return onceValue(context) !== undefined
      ? new z.errors.ThrottledError('The same step is still running on the service; retrying shortly.', 5)
      : fail('The service was still carrying out this step when the time for it ran out.');
  }
  if (error instanceof SubscriptionRequiredError) {
    return fail(
      'This team has no active paid subscription. Ask a team admin to renew the plan, then run the step again.',
    );
  }
  if (error instanceof InsufficientScopeError) {
    return fail(missingPermissionMessage(scopesOf(error.details), context.origin));
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
  if (error instanceof TimeoutError) {
    return fail(`The service${at(context)} did not answer in time.${tryAgain(context)}`);
  }
  if (error instanceof ConnectionError) {
    const reason = whyNoAnswer(error);
    return fail(
      reason === 'lost'
        ? `The connection to the service${at(context)} was lost before it answered.${tryAgain(context)}`
        : `Could not reach the service${at(context)}: ${NO_ANSWER_WORDS[reason]}. ` +
            "Check the connection's Service URL, or run the step again once the service is back.",
    );
  }
  if (status !== undefined && status >= 500) {
    return fail(`${serverFailure(error, status)}${tryAgain(context)}`);
  }
  // An answer that is not the service's own (no error code: a web page, a proxy's error) is never shown.
  if (error instanceof InvalidResponseError || error.code === undefined) {
    return fail(
      `The service URL${at(context)} answered${status === undefined ? '' : ` HTTP ${status}`} with something that ` +
        "is not the service's API. Check the connection's Service URL: the address you open the service at.",
    );
  }
  return fail(error.message);
}

/** Why no answer came, in words. */
export const NO_ANSWER_WORDS = {
  refused: 'the connection was refused',
  'no such host': 'no such host',
  unreachable: 'the host cannot be reached',
  lost: 'the connection was lost before it answered',
} as const;

/** " at https://host" when the origin is known (said once in a message). */
function at(context: ErrorContext): string {
  return context.origin === undefined || context.origin === '' ? '' : ` at ${context.origin}`;
}

/** After a failure without the service's word: try again later, unless a write may have acted (see below). */
function tryAgain(context: ErrorContext): string {
  return writesThatMayHaveActed(context.run).length > 0 ? '' : ' Try the step again in a few minutes.';
}

/** A 5xx in plain words, with the request ID when the answer had one: never the answer's body. */
function serverFailure(error: ThreadworkError, status: number): string {
  const requestId = error.requestId === undefined ? '' : `, request ID ${error.requestId}`;
  const what =
    status === 502 || status === 504
      ? 'a gateway in front of the service got no proper answer from it'
      : status === 503
        ? 'the service is unavailable for the moment'
        : 'the service ran into an internal error';
  return `The service failed (HTTP ${status}${requestId}): ${what}.`;
}

/** The step's "Only Once Per" value, when the user set one. */
function onceValue(context: ErrorContext): string | undefined {
  const value = context.inputs[DEDUPE_KEY];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * `message`, and when the run's writes acted or may have (lib/run.ts), what that means for a replay: the
 * service may have carried out the step, so check before replaying, or use Only Once Per. A failure the
 * service answered with a 4xx before any write acted needs no such word.
 */
function withRunOutcome(message: string, context: ErrorContext): string {
  const writes = writesThatMayHaveActed(context.run);
  if (writes.length === 0) return message;
  const done = context.run?.done ?? [];
  const unknown = writes.some((write) => write.state === 'unknown');
  const what =
    done.length > 0
      ? `Before this failure the step had ${done.join(' and ')}${unknown ? ', and the service may have carried out the rest' : ''}`
      : unknown
        ? 'The service may have carried out this step before the failure'
        : 'Part of this step was carried out before this failure';
  const replay =
    onceValue(context) !== undefined
      ? 'Replaying this run is safe: with Only Once Per set, the service repeats what it did instead of acting again.'
      : 'Check in the service before replaying this run (a replay runs the step again in full), or map something ' +
        'unique to the trigger item (e.g. its Event ID) into Only Once Per, so that a replay cannot act twice.';
  return `${message} ${what}. ${replay}`;
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
      const given = context?.(bundle) ?? NO_CONTEXT;
      const full = { ...given, origin: originOf(bundle), run: existingRun(bundle) };
      throw withoutSecrets(toZapierError(z, error, full), bundle);
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
  // A board's custom field whose name the step did not get: its ID, never a label made of the key.
  const customField = /^custom_field__(.+)$/.exec(path)?.[1];
  if (customField !== undefined) return `Custom field \`${customField}\``;
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
  // A schema's own words ("Invalid email address"), not a message that already says what to do.
  if (/^(invalid\b.*\b(email|address)|must be an? (valid )?email)/i.test(message)) {
    return 'use an email address like bob@example.com';
  }
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
