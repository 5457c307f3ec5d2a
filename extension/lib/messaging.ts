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

/** Advice per kind, used in the error area: what happened and what to do. */
export const ERROR_ADVICE: Record<ErrorKind, string> = {
  not_configured: 'Threadwork is not set up yet. Open the settings and enter your service URL and API key.',
  permission: 'Threadwork may not reach your service yet. Open the settings and save them to allow access.',
  bad_credentials: 'Your email, API key or secret was refused. Check them in the settings.',
  subscription: 'This team has no paid subscription. Renew it in the service, or choose another team.',
  mailbox: 'Your mailbox needs to be reconnected in the service before tasks can be made from threads.',
  unreachable: 'The service could not be reached. Check your connection or the service URL, then retry.',
  scope: 'Your API key lacks a permission this needs. Create a key with that scope in the API tab.',
  not_found: 'That item no longer exists, or you may not see it.',
  invalid: 'The service refused the request.',
  unknown: 'Something went wrong.',
};

/**
 * The kind of a failure. Checked by shape, not `instanceof`: the panel's chunk and the mailbox script (whose
 * `send` raised it) each bundle their own copy of `ExtensionError`.
 */
export function errorKind(error: unknown): ErrorKind {
  const kind = (error as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' && Object.hasOwn(ERROR_ADVICE, kind) ? (kind as ErrorKind) : 'unknown';
}

/** Whether the settings can fix it, so the error offers a link there (a wrong service URL reads as unreachable). */
export function wantsSettings(kind: ErrorKind): boolean {
  return (
    kind === 'not_configured' ||
    kind === 'permission' ||
    kind === 'bad_credentials' ||
    kind === 'scope' ||
    kind === 'unreachable'
  );
}
