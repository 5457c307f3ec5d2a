import type { ApiError } from '../api.ts';

export function Failure({ error }: { error: ApiError }) {
  return (
    <p class="error" role="alert">
      {error.status === 404 ? 'Not found: ' : ''}
      {error.message}
    </p>
  );
}

export function Loading() {
  return <p class="muted">Loading…</p>;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatDate(value: string | null | undefined): string {
  return value ? dateFormat.format(new Date(value)) : '—';
}

export function formatTime(value: string | null | undefined): string {
  return value ? timeFormat.format(new Date(value)) : '—';
}

export function Time({ value, withTime = false }: { value: string | null | undefined; withTime?: boolean }) {
  if (!value) return <span class="muted">—</span>;
  return <time dateTime={value}>{withTime ? formatTime(value) : formatDate(value)}</time>;
}

/** The shade names of the spec, as a person reads them. */
export const SHADE_LABELS: Record<string, string> = {
  none: 'No shade',
};

export function shadeLabel(shade: string): string {
  return SHADE_LABELS[shade] ?? shade.replace(/_/g, ' ');
}
