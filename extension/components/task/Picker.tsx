import type { Remote } from './remote.ts';

/**
 * One picker of the panel: disabled until it has options, and with a first line (`empty`) that says why
 * nothing is chosen (loading, unavailable, none) instead of a blank box.
 */
export function Picker(props: {
  label: string;
  testId: string;
  value: string;
  empty: string | null;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select
        data-testid={props.testId}
        value={props.value}
        disabled={props.options.length === 0}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        {props.empty !== null && <option value="">{props.empty}</option>}
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The placeholder a picker shows when it has no valid choice: never a blank box. */
export function placeholder(
  remote: { state: Remote<unknown> | null },
  empty: string,
  before: string,
): string {
  const state = remote.state;
  if (state === null) return before;
  if (state.data !== null) return empty;
  if (state.loading) return 'Loading…';
  return state.error == null ? empty : 'Unavailable';
}
