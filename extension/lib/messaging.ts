/**
 * The sending side of the message protocol, for the content script and the pages. Type-only imports: the
 * background validates every request with the protocol's zod schemas, so the mailbox bundle stays small.
 */
import type { ErrorKind, Failure, RequestOf, RequestType, ResponseOf, Result } from './protocol.ts';

/** A failure answered by the background, with the kind the panel turns into advice. */
export class ExtensionError extends Error {
  readonly kind: ErrorKind;
  readonly code: string | undefined;

  constructor(failure: Failure) {
    super(failure.message);
    this.name = 'ExtensionError';
    this.kind = failure.kind;
    this.code = failure.code;
  }
}

export type Send = <T extends RequestType>(request: RequestOf<T>) => Promise<ResponseOf<T>>;

/** The one call `send` needs: `runtime.sendMessage`, promise-based (the polyfill's, or the browser's own). */
export interface MessageRuntime {
  sendMessage(message: unknown): Promise<unknown>;
}

/** A `send` over the runtime: resolves to the answer's data, or rejects with an `ExtensionError`. */
export const createSend =
  (runtime: MessageRuntime): Send =>
  async (request) => {
    let result: Result<never> | undefined;
    try {
      result = (await runtime.sendMessage(request)) as Result<never> | undefined;
    } catch (error) {
      // The worker was being replaced (an update) or the extension was reloaded under this page.
      throw new ExtensionError({
        kind: 'unknown',
        message: `The extension did not answer (${error instanceof Error ? error.message : String(error)}). Reload the page.`,
      });
    }
    if (result === undefined || typeof result !== 'object' || !('ok' in result)) {
      throw new ExtensionError({
        kind: 'unknown',
        message: 'The extension answered nothing. Reload the page.',
      });
    }
    if (!result.ok) throw new ExtensionError(result.error);
    return result.data;
  };

/** Advice per kind, used in the error areas: what happened and what to do, in a mailbox user's words. */
export const ERROR_ADVICE: Record<ErrorKind, string> = {
  not_configured: 'Threadwork is not set up yet: enter your service URL and a key + secret in the settings.',
  signed_out:
    'Threadwork is signed out: the key it signed in with was revoked. Enter another key + secret in the settings.',
  permission: 'Threadwork needs your permission to reach your service.',
  bad_credentials:
    'The service refused Threadwork’s key. Check the email, API key, secret and key name in the settings, or enter a new key + secret.',
  subscription: 'This team has no paid subscription. Renew it in the service, or choose another team.',
  mailbox: 'Your mailbox needs to be reconnected in the service before tasks can be made from threads.',
  unreachable: 'The service could not be reached. Check your connection or the service URL, then retry.',
  scope: 'Your API key lacks a permission this needs. Create a key with that scope in the API tab.',
  not_found: 'That item no longer exists, or you may not see it.',
  thread_unknown:
    'This thread is not in Threadwork yet, so the task cannot be linked to it. You can still create the task without the link.',
  invalid: 'The service refused the request.',
  unknown: 'Something went wrong.',
};

/**
 * The kind of a failure. Checked by shape, not `instanceof`: a failure may come from another bundle's copy
 * of `ExtensionError`.
 */
export function errorKind(error: unknown): ErrorKind {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && Object.hasOwn(ERROR_ADVICE, kind) ? (kind as ErrorKind) : 'unknown';
}

/** The service's error code of a failure (or `task_created`), when it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether the settings can fix it, so the error offers a link there (a wrong service URL reads as unreachable). */
export function wantsSettings(kind: ErrorKind): boolean {
  return (
    kind === 'not_configured' ||
    kind === 'signed_out' ||
    kind === 'bad_credentials' ||
    kind === 'scope' ||
    kind === 'unreachable'
  );
}

/**
 * Whether running the same thing again can succeed without the user changing anything first: the service
 * was away or failed, or the user may have reconnected the mailbox meanwhile. Never for what only a change
 * of settings, team or permission fixes.
 */
export function retryable(kind: ErrorKind): boolean {
  return kind === 'unreachable' || kind === 'unknown' || kind === 'mailbox';
}
