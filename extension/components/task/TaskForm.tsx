/** The create form's fields: title, where the task goes, the board's fields, notes, due date, position. */
import { MAX_NOTES_LENGTH, MAX_TITLE_LENGTH } from '@threadwork/shared/light';
import type { Ref } from 'preact';
import { useEffect } from 'preact/hooks';
import { FORM_SHOWN } from '../../lib/frame.ts';
import { CustomFields } from './CustomFields.tsx';
import { Picker, placeholder } from './Picker.tsx';
import type { Destination } from './useDestination.ts';
import type { DraftHandle } from './useDraft.ts';

/** `YYYY-MM-DD` from the date input, as the end of that day in the user's time zone. */
export function dueAt(date: string): string | undefined {
  if (date === '') return undefined;
  const parsed = new Date(`${date}T23:59:00`);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed.toISOString();
}

export type QuickDue = 'today' | 'tomorrow' | 'next-week';
const QUICK_DUE: { id: QuickDue; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'tomorrow', label: 'Tomorrow' },
  { id: 'next-week', label: 'Next week' },
];

/** The date of a quick choice, in the user's time zone. "Next week" is next Monday, as Gmail's snooze has it. */
export function quickDue(which: QuickDue, now = new Date()): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (which === 'tomorrow') day.setDate(day.getDate() + 1);
  if (which === 'next-week') day.setDate(day.getDate() + ((8 - day.getDay()) % 7 || 7));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

export function TaskForm({
  draft,
  destination: to,
  pending,
  linkable,
  prefilled,
  titleField,
  onSubmit,
}: {
  draft: DraftHandle;
  destination: Destination;
  pending: boolean;
  /** Whether the task will be linked to the thread (the thread is not known to be missing from the service). */
  linkable: boolean;
  /** Whether the notes are still the text filled in from the email. */
  prefilled: boolean;
  titleField: Ref<HTMLTextAreaElement>;
  onSubmit: () => void;
}) {
  const { draft: values, update } = draft;
  // A user timing mark: when the form first shows (the bench times the panel's open by it).
  useEffect(() => {
    performance.mark(FORM_SHOWN);
  }, []);
  const fieldsError = to.boardValid && to.fields.state?.error != null && to.fields.data === null;
  return (
    <form
      class="tw-form"
      aria-label="New task from this thread"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label>
        Title
        <textarea
          ref={titleField}
          data-testid="threadwork-title"
          rows={2}
          maxLength={MAX_TITLE_LENGTH}
          value={values.title}
          onInput={(event) => update({ title: event.currentTarget.value })}
        />
      </label>
      <div class="tw-pickers">
        <Picker
          label="Team"
          testId="threadwork-team"
          value={to.team === undefined ? '' : to.teamId}
          empty={to.team === undefined ? placeholder(to.teams, 'No teams', 'Not set up') : null}
          options={(to.teamChoices ?? []).map((team) => ({
            value: team.id,
            label: team.paid ? team.name : `${team.name} (unpaid)`,
          }))}
          onChange={to.chooseTeam}
        />
        <Picker
          label="Board"
          testId="threadwork-board"
          value={to.boardValid ? to.boardId : ''}
          empty={
            to.boardValid
              ? null
              : to.unpaid
                ? 'Unavailable (unpaid team)'
                : placeholder(to.boards, 'No boards', '—')
          }
          options={(to.team === undefined || to.unpaid ? [] : (to.boards.data ?? [])).map((board) => ({
            value: board.id,
            label: board.name,
          }))}
          onChange={to.chooseBoard}
        />
        <Picker
          label="List"
          testId="threadwork-list"
          value={to.listValid ? to.listId : ''}
          empty={to.listValid ? null : placeholder(to.lists, 'No lists', '—')}
          options={(to.boardValid ? (to.lists.data ?? []) : []).map((list) => ({
            value: list.id,
            label: list.name,
          }))}
          onChange={to.chooseList}
        />
        <Picker
          label="Assignee"
          testId="threadwork-assignee"
          value={to.assignee}
          empty={to.members.data === null ? placeholder(to.members, 'Nobody', '—') : 'Nobody'}
          options={(to.boardValid ? (to.members.data ?? []) : []).map((member) => ({
            value: member.email,
            label: member.display_name ?? member.email,
          }))}
          onChange={to.chooseAssignee}
        />
      </div>
      {to.boardValid && (
        <CustomFields fields={to.fields.data ?? []} values={values.fields} onChange={draft.setField} />
      )}
      {fieldsError && (
        <p class="tw-muted" data-testid="threadwork-fields-unavailable">
          This board’s own fields could not be read, so they are left empty.
        </p>
      )}
      <Notes notes={values.notes} prefilled={prefilled} onChange={(notes) => update({ notes })} />
      <div class="tw-row">
        <div class="tw-field">
          <label for="tw-due">Due date</label>
          <input
            id="tw-due"
            type="date"
            data-testid="threadwork-due"
            value={values.due}
            onInput={(event) => update({ due: event.currentTarget.value })}
          />
          <fieldset class="tw-chips" aria-label="Quick due dates">
            {QUICK_DUE.map((choice) => (
              <button
                key={choice.id}
                type="button"
                data-testid={`threadwork-due-${choice.id}`}
                aria-pressed={values.due !== '' && values.due === quickDue(choice.id)}
                onClick={() => update({ due: quickDue(choice.id) })}
              >
                {choice.label}
              </button>
            ))}
          </fieldset>
        </div>
        <label>
          Position
          <select
            data-testid="threadwork-position"
            value={values.position}
            onChange={(event) =>
              update({ position: event.currentTarget.value === 'bottom' ? 'bottom' : 'top' })
            }
          >
            <option value="top">Top of the list</option>
            <option value="bottom">Bottom of the list</option>
          </select>
        </label>
      </div>
      {linkable && (
        <label class="tw-check">
          <input
            type="checkbox"
            data-testid="threadwork-archive"
            checked={values.archive}
            onChange={(event) => update({ archive: event.currentTarget.checked })}
          />
          Archive the thread
        </label>
      )}
      <div class="tw-buttons tw-submit">
        <button
          type="submit"
          class="tw-primary"
          data-testid="threadwork-submit"
          disabled={!to.valid}
          // Pending keeps the button focusable (aria-disabled): focus never drops to the page.
          aria-disabled={pending}
        >
          {pending ? 'Creating…' : linkable ? 'Create task' : 'Create task without the link'}
        </button>
        <span class="tw-hint">Ctrl+Enter</span>
      </div>
    </form>
  );
}

/**
 * The notes, prefilled with the open message's text and a link back to the thread, and said so: what the
 * user did not type is marked, and goes with one click.
 */
function Notes({
  notes,
  prefilled,
  onChange,
}: {
  notes: string;
  prefilled: boolean;
  onChange: (notes: string) => void;
}) {
  return (
    <div class="tw-field">
      <label for="tw-notes">Notes</label>
      <textarea
        id="tw-notes"
        data-testid="threadwork-notes"
        rows={4}
        maxLength={MAX_NOTES_LENGTH}
        aria-describedby={prefilled ? 'tw-notes-hint' : undefined}
        value={notes}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
      {prefilled && (
        <p class="tw-hint tw-notes-hint" id="tw-notes-hint" data-testid="threadwork-notes-hint">
          Filled in from the email: the open message’s first 2,000 characters and a link back to the thread.
          Edit them freely.{' '}
          <button
            type="button"
            class="tw-link tw-inline"
            data-testid="threadwork-notes-clear"
            onClick={() => onChange('')}
          >
            Clear notes
          </button>
        </p>
      )}
    </div>
  );
}
