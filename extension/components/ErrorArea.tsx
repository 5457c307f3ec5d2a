import { ERROR_ADVICE, errorKind, retryable, wantsSettings } from '../lib/messaging.ts';
import { readableDetail } from '../lib/readable.ts';

export interface ErrorAreaProps {
  error: unknown;
  testId: string;
  onOpenSettings?: (() => void) | undefined;
  /** Runs what failed again; offered only where running it again can help. */
  onRetry?: (() => void) | undefined;
  /** Asks the browser for access to the service (a missing permission). */
  onGrant?: (() => void) | undefined;
}

/**
 * The error area: what happened (in words, never a raw URL or secret), and the next step that can help:
 * allow access, the settings, or Retry.
 */
export function ErrorArea({ error, testId, onOpenSettings, onRetry, onGrant }: ErrorAreaProps) {
  if (error === null || error === undefined) return null;
  const kind = errorKind(error);
  const detail = readableDetail(error instanceof Error ? error.message : String(error));
  const grant = kind === 'permission' && onGrant !== undefined;
  const settings = wantsSettings(kind) && onOpenSettings !== undefined;
  const retry = retryable(kind) && onRetry !== undefined;
  return (
    <div class="tw-error" role="alert" data-testid={testId} data-kind={kind}>
      <strong>{ERROR_ADVICE[kind]}</strong>
      {detail !== '' && <div class="tw-error-detail">{detail}</div>}
      {(grant || settings || retry) && (
        <div class="tw-buttons">
          {grant && (
            <button type="button" class="tw-primary" data-testid="threadwork-grant" onClick={onGrant}>
              Allow access
            </button>
          )}
          {settings && (
            <button type="button" class="tw-link" onClick={onOpenSettings}>
              Open settings
            </button>
          )}
          {retry && (
            <button type="button" data-testid="threadwork-retry" onClick={onRetry}>
              Retry
            </button>
          )}
        </div>
      )}
    </div>
  );
}
