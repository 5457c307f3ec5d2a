import { ERROR_ADVICE, errorKind, wantsSettings } from '../lib/messaging.ts';
import { readableDetail } from '../lib/readable.ts';

export interface ErrorAreaProps {
  error: unknown;
  testId: string;
  onOpenSettings?: (() => void) | undefined;
  /** Runs what failed again; every error state of the panel offers it. */
  onRetry?: (() => void) | undefined;
}

/** The error area: what happened (in words, never a raw URL or secret), what to do, Retry and the settings. */
export function ErrorArea({ error, testId, onOpenSettings, onRetry }: ErrorAreaProps) {
  if (error === null || error === undefined) return null;
  const kind = errorKind(error);
  const detail = readableDetail(error instanceof Error ? error.message : String(error));
  const settings = wantsSettings(kind) && onOpenSettings !== undefined;
  return (
    <div class="tw-error" role="alert" data-testid={testId} data-kind={kind}>
      <strong>{ERROR_ADVICE[kind]}</strong>
      {detail !== '' && <div class="tw-error-detail">{detail}</div>}
      {(onRetry !== undefined || settings) && (
        <div class="tw-buttons">
          {settings && (
            <button type="button" class="tw-link" onClick={onOpenSettings}>
              Open settings
            </button>
          )}
          {onRetry !== undefined && (
            <button type="button" data-testid="threadwork-retry" onClick={onRetry}>
              Retry
            </button>
          )}
        </div>
      )}
    </div>
  );
}
