import type { Task } from '@threadwork/shared/schemas';
import { useEffect, useRef } from 'preact/hooks';

/**
 * What the form becomes after a create: where the task went, Open, and Create another. It takes the focus
 * from the Create button it replaces, so the keyboard never falls to the page, and Tab goes on to Open.
 */
export function Confirmation({
  task,
  assigneeName,
  onOpen,
  onAnother,
}: {
  task: Task;
  assigneeName: string | null;
  onOpen: () => void;
  onAnother: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div class="tw-ok" role="status" tabIndex={-1} ref={box} data-testid="threadwork-confirmation">
      Created “{task.title}” in <strong>{task.board_name ?? 'its board'}</strong> ›{' '}
      <strong>{task.list_name ?? 'its list'}</strong>
      {assigneeName !== null ? `, assigned to ${assigneeName}` : ''}.
      <div class="tw-buttons">
        <button type="button" class="tw-primary" onClick={onOpen}>
          Open
        </button>
        <button type="button" data-testid="threadwork-create-another" onClick={onAnother}>
          Create another
        </button>
      </div>
    </div>
  );
}
