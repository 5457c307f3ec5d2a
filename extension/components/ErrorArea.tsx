import { ERROR_ADVICE, ExtensionError, wantsSettings } from '../lib/messaging.ts';

export interface ErrorAreaProps {
  error: unknown;
  testId: string;
  onOpenSettings?: (() => void) | undefined;
}

/** The error area: what happened, what to do, and a way to the settings when that is the fix. */
export function ErrorArea({ error, testId, onOpenSettings }: ErrorAreaProps) {
  if (error === null || error === undefined) return null;
  const kind = error instanceof ExtensionError ? error.kind : 'unknown';
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <div class="tw-error" role="alert" data-testid={testId} data-kind={kind}>
      <strong>{ERROR_ADVICE[kind]}</strong>
      {detail !== '' && <div class="tw-error-detail">{detail}</div>}
      {wantsSettings(kind) && onOpenSettings !== undefined && (
        <button type="button" class="tw-link" onClick={onOpenSettings}>
          Open settings
        </button>
      )}
    </div>
  );
}
