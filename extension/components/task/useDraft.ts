/**
 * What the user is writing for one thread: the task's fields and the Idempotency-Key of this one create.
 * A draft is kept per thread (by the background, in memory: closing the panel, opening another thread or
 * reloading the mailbox loses nothing) until the task is created or the user discards it.
 *
 * `key` is the Idempotency-Key of this create (one logical operation: Stripe's rule). A double click,
 * Ctrl+Enter or a retry after a lost answer sends it again, so the service makes one task; a new one comes
 * only with a new draft, or after the service said the create did nothing. `edited` says whether there is
 * something to keep or to lose: the user changed the draft, or tried to create it (a create whose answer was
 * lost must be retried with the same key, even after the panel was closed).
 */
import { MAX_NOTES_LENGTH, MAX_TITLE_LENGTH } from '@threadwork/shared/light';
import { useState } from 'preact/hooks';
import type { ThreadMeta } from '../../lib/frame.ts';
import type { Send } from '../../lib/messaging.ts';
import type { Draft } from '../../lib/protocol.ts';
import { cut } from '../../lib/text.ts';

export type { Draft };
/** A custom field's value as the form holds it: text, a checkbox, or chosen option ids. */
export type FieldInput = Draft['fields'][string];

let drafts: Record<string, Draft> = {};
let store: Send | undefined;
let loaded: Promise<void> = Promise.resolve();

/** Reads the kept drafts, once per page, before the first panel shows; `send` keeps them from then on. */
export function loadDrafts(send: Send): Promise<void> {
  store = send;
  loaded = send({ type: 'drafts.get' }).then(
    (kept) => {
      drafts = kept;
    },
    () => {},
  );
  return loaded;
}

/** Resolves once the kept drafts are read (a panel's drafts are there when it mounts). */
export const draftsLoaded = (): Promise<void> => loaded;

/** A kept draft the user wrote in, for a thread; undefined when there is none. */
export function keptDraft(threadId: string): Draft | undefined {
  const draft = drafts[threadId];
  return draft?.edited ? draft : undefined;
}

function keepDraft(threadId: string, draft: Draft | null): void {
  const kept = draft?.edited ? draft : null;
  const { [threadId]: _, ...others } = drafts;
  drafts = kept === null ? others : { ...others, [threadId]: kept };
  void store?.({ type: 'drafts.put', thread_id: threadId, draft: kept }).catch(() => {});
}

/** Forgets a thread's draft (the user discarded it from another thread's panel). */
export function discardDraft(threadId: string): void {
  keepDraft(threadId, null);
}

/** The notes a new draft starts with: the open message's text and a link back to the thread, marked as such. */
export function prefilledNotes(thread: ThreadMeta): string {
  const parts: string[] = [];
  if (thread.message !== null) {
    const from = thread.message.sender === null ? '' : `From ${thread.message.sender}:\n`;
    parts.push(`${from}${thread.message.text}`);
  }
  if (thread.url !== '') parts.push(`Thread: ${thread.url}`);
  return cut(parts.join('\n\n'), MAX_NOTES_LENGTH);
}

function freshDraft(thread: ThreadMeta): Draft {
  return {
    // The service takes a title of at most MAX_TITLE_LENGTH characters: a longer subject is cut, marked "…".
    title: cut(thread.subject, MAX_TITLE_LENGTH),
    notes: prefilledNotes(thread),
    due: '',
    position: 'top',
    archive: false,
    fields: {},
    key: crypto.randomUUID(),
    edited: false,
  };
}

export interface DraftHandle {
  draft: Draft;
  /** Whether this draft was written earlier and kept (the panel says so, with a way to discard it). */
  restored: boolean;
  update(patch: Partial<Omit<Draft, 'key' | 'edited'>>): void;
  /** One custom field's value (several may change before the next render). */
  setField(fieldId: string, value: FieldInput): void;
  /** Back to a fresh draft; what was typed is gone. */
  discard(): void;
  /** The create succeeded: the next one is a new operation, with a new key. */
  sent(): void;
  /** A create is being tried: from now on the draft, and its key, are kept. */
  attempt(): void;
  /** The service answered that the create did nothing: the next try is a new operation. */
  renewKey(): void;
}

export function useDraft(thread: ThreadMeta): DraftHandle {
  const [state, setState] = useState(() => {
    const kept = keptDraft(thread.id);
    return { draft: kept ?? freshDraft(thread), restored: kept !== undefined };
  });
  const replace = (draft: Draft, restored = false) => {
    keepDraft(thread.id, draft);
    setState({ draft, restored });
  };
  const change = (next: (draft: Draft) => Draft) =>
    setState((previous) => {
      const draft = next(previous.draft);
      keepDraft(thread.id, draft);
      return { ...previous, draft };
    });
  return {
    draft: state.draft,
    restored: state.restored,
    update: (patch) => change((draft) => ({ ...draft, ...patch, edited: true })),
    setField: (fieldId, value) =>
      change((draft) => ({ ...draft, fields: { ...draft.fields, [fieldId]: value }, edited: true })),
    discard: () => replace(freshDraft(thread)),
    attempt: () => change((draft) => ({ ...draft, edited: true })),
    sent: () => replace(freshDraft(thread)),
    renewKey: () => change((draft) => ({ ...draft, key: crypto.randomUUID() })),
  };
}
