import type { Task } from '@threadwork/shared/schemas';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ThreadMeta } from '../../lib/frame.ts';
import { ExtensionError, errorCode, errorKind, type Send } from '../../lib/messaging.ts';
import type { LinkedTaskView, ThreadView } from '../../lib/protocol.ts';
import { LINKED_STATES, linkedTaskView, PERSONAL, TASK_CREATED } from '../../lib/protocol-values.ts';
import type { Access } from '../../lib/ui/access.ts';
import { ErrorArea } from '../ErrorArea.tsx';
import { GrantStatus, useGrant } from '../Grant.tsx';
import { NO_ANSWERS } from './answers.ts';
import { Confirmation } from './Confirmation.tsx';
import { fieldValues } from './CustomFields.tsx';
import { ExistingTask, useExistingTask } from './ExistingTask.tsx';
import { LinkedTasks } from './LinkedTasks.tsx';
import { useRemote, useSlow } from './remote.ts';
import { type SetupAnswer, takeSetup } from './setup.ts';
import { dueAt, TaskForm } from './TaskForm.tsx';
import { useDestination } from './useDestination.ts';
import { prefilledNotes, useDraft } from './useDraft.ts';

/** How long an answer may take before the panel says it is still waiting. */
export const PROGRESS_AFTER_MS = 1000;

export interface TaskPanelProps {
  thread: ThreadMeta;
  send: Send;
  access: Access;
  onOpenSettings: () => void;
  /** Called with the submit function, so a keyboard shortcut (Ctrl+Enter) can submit. */
  onSubmitRef?: ((submit: () => void) => void) | undefined;
  /** Another thread whose draft is kept (the user went on with the panel open): said, with a way to drop it. */
  keptElsewhere?: { subject: string; discard: () => void } | null | undefined;
}

/**
 * The "create a task from this thread" panel. It reads the settings and the answers kept from its last use
 * (all local, no round trip: setup.ts), then shows the form at once and asks the service for the rest in
 * parallel.
 */
export function TaskPanel(props: TaskPanelProps) {
  const [reading] = useState(() => takeSetup(props.send));
  const [setup, setSetup] = useState<SetupAnswer | null>(reading.value ?? null);
  useEffect(() => {
    if (setup === null) void reading.promise.then(setSetup);
  }, []);
  if (setup === null) return <p class="tw-muted">Loading…</p>;
  return <LoadedTaskPanel {...props} setup={setup} />;
}

function LoadedTaskPanel({
  thread,
  send,
  access,
  onOpenSettings,
  onSubmitRef,
  keptElsewhere,
  setup,
}: TaskPanelProps & { setup: SetupAnswer }) {
  const settings = 'settings' in setup ? setup.settings : null;
  const configured = settings?.configured === true;
  const answers = 'answers' in setup ? setup.answers : NO_ANSWERS;
  const draft = useDraft(thread);
  const to = useDestination(send, 'choice' in setup ? setup.choice : null, configured, answers);
  const threadView = useRemote<ThreadView>(
    configured ? `thread:${thread.id}` : null,
    () => send({ type: 'thread.get', thread_id: thread.id }),
    answers,
  );
  // The newest of the thread's tasks are read for their state once the thread named them (a little later).
  const newest = (threadView.data?.tasks ?? []).slice(-LINKED_STATES).map((task) => task.id);
  const states = useRemote<LinkedTaskView[]>(
    newest.length > 0 ? `states:${newest.join(',')}` : null,
    () => send({ type: 'tasks.states', task_ids: newest }),
    answers,
  );
  const threadState =
    threadView.state?.data == null
      ? threadView.state
      : {
          ...threadView.state,
          data: {
            ...threadView.state.data,
            tasks: threadView.state.data.tasks.map(
              (task) => states.data?.find((known) => known.id === task.id) ?? task,
            ),
          },
        };
  // The create said the thread is unknown before the thread's own answer did.
  const [unknownThread, setUnknownThread] = useState(false);
  const linkable = !unknownThread && threadView.state?.data?.known !== false;
  const linked = threadView.data?.tasks.map((task) => task.id) ?? [];
  // The search runs over a paid team's tasks, for a thread the service knows.
  const searchable = to.team !== undefined && !to.unpaid && to.teamId !== PERSONAL && linkable;
  const existing = useExistingTask(thread.id, to.teamId, searchable, linked, send, () => threadView.reload());
  const grant = useGrant(access, send, true);

  const [actionError, setActionError] = useState<{ error: unknown; retry?: () => void } | null>(null);
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<Task | null>(null);
  const pendingRef = useRef(false);
  const titleField = useRef<HTMLTextAreaElement>(null);

  const loads = [
    { name: 'teams', remote: to.teams, relevant: true },
    { name: 'boards', remote: to.boards, relevant: to.team !== undefined && !to.unpaid },
    { name: 'lists', remote: to.lists, relevant: to.boardValid },
    { name: 'board members', remote: to.members, relevant: to.boardValid },
    { name: 'tasks from this thread', remote: threadView, relevant: true },
    { name: 'matching tasks', remote: existing.search, relevant: true },
  ];
  // What is shown is about the current choice; what Retry runs again is everything that failed.
  const shown = loads.filter((load) => load.relevant && load.remote.state !== null);
  const waiting = shown.filter((load) => load.remote.state?.loading && load.remote.data === null);
  const slow = useSlow(waiting.length > 0 || pending || existing.linking, PROGRESS_AFTER_MS);
  const failed = shown.filter((load) => load.remote.state?.error != null);
  const retried = [...loads, { remote: to.fields }, { remote: to.personal }].filter(
    (load) => load.remote.state?.error != null,
  );
  const setupError =
    'error' in setup
      ? setup.error
      : !configured
        ? new ExtensionError({ kind: settings?.signedOut ? 'signed_out' : 'not_configured', message: '' })
        : null;
  const unpaidError =
    to.team !== undefined && to.unpaid
      ? new ExtensionError({
          kind: 'subscription',
          message: `${to.team.name} has no paid subscription, so no task can be made there.`,
        })
      : null;
  const shownError =
    actionError?.error ??
    existing.error?.error ??
    setupError ??
    failed[0]?.remote.state?.error ??
    unpaidError;

  // One Retry for every state: it runs again whatever failed.
  const retryAll = () => {
    const action = actionError;
    const link = existing.error;
    setActionError(null);
    existing.clearError();
    action?.retry?.();
    link?.retry();
    for (const load of retried) load.remote.reload();
  };
  // Access granted (here, or in the settings tab the panel opened): what failed for the want of it runs again.
  const retryRef = useRef(retryAll);
  retryRef.current = retryAll;
  useEffect(() => access.watch(() => retryRef.current()), []);

  const submitRef = useRef<() => void>(() => {});
  const submit = async () => {
    if (pendingRef.current || created !== null || !to.valid) return;
    const values = draft.draft;
    const title = values.title.trim();
    const task = {
      list_id: to.listId,
      // Not linked, the task needs a title of its own: the subject, when the field was emptied.
      ...(linkable
        ? { thread_id: thread.id }
        : { title: title === '' ? thread.subject || 'Untitled' : title }),
      ...(linkable && title !== '' ? { title } : {}),
      ...(values.notes.trim() === '' ? {} : { notes: values.notes }),
      ...(dueAt(values.due) === undefined ? {} : { due_at: dueAt(values.due) }),
      position: values.position,
      ...(linkable && values.archive ? { archive: true } : {}),
    };
    const customFields = fieldValues(to.fields.data ?? [], values.fields);
    const choice = to.choice;
    pendingRef.current = true;
    setPending(true);
    setActionError(null);
    try {
      const creating = send({
        type: 'task.create',
        task,
        choice,
        idempotency_key: values.key,
        ...(customFields.length === 0 ? {} : { custom_fields: customFields }),
        ...(to.assignee === '' ? {} : { assignee_email: to.assignee }),
      });
      // Kept from now on, with its key (after the create is on its way: it never waits for this).
      draft.attempt();
      const result = await creating;
      to.remember(choice);
      draft.sent();
      setCreated(result);
      threadView.reload();
    } catch (failure) {
      settleFailure(failure);
    } finally {
      pendingRef.current = false;
      setPending(false);
    }
  };
  submitRef.current = () => void submit();
  onSubmitRef?.(() => submitRef.current());

  /** What a failed create means for its key: kept only where the service may have made the task. */
  const settleFailure = (failure: unknown) => {
    const kind = errorKind(failure);
    const code = errorCode(failure);
    if (code === 'idempotency_conflict') {
      // The key's first try reached the service with other values: it may have made the task.
      draft.renewKey();
      threadView.reload();
      setActionError({
        error: new ExtensionError({
          kind: 'invalid',
          message:
            'An earlier try of this task reached the service and may have made it: see “Tasks from this thread” below. Create again to make it anyway.',
        }),
      });
      return;
    }
    // The service answered and did nothing (a 4xx): the next try is a new create, with a new key.
    if (code !== TASK_CREATED && kind !== 'unreachable' && kind !== 'unknown') draft.renewKey();
    if (kind === 'thread_unknown') setUnknownThread(true);
    setActionError({ error: failure, retry: () => submitRef.current() });
  };

  const createAnother = () => {
    setCreated(null);
    setTimeout(() => titleField.current?.focus(), 0);
  };

  const complete = async (taskId: string) => {
    try {
      setActionError(null);
      const task = await send({ type: 'task.complete', task_id: taskId });
      states.set([...(states.data ?? []).filter((known) => known.id !== taskId), linkedTaskView(task)]);
    } catch (failure) {
      setActionError({ error: failure, retry: () => void complete(taskId) });
    }
  };

  const open = (taskId: string) =>
    send({ type: 'task.open', task_id: taskId }).catch((failure: unknown) =>
      setActionError({ error: failure, retry: () => void open(taskId) }),
    );

  const memberName = (email: string | null | undefined) =>
    email ? (to.members.data?.find((member) => member.email === email)?.display_name ?? email) : null;

  const askAccess = () => {
    if (settings?.configured) void grant.ask(settings.origin);
  };

  // What the panel waits for or could not load shows above the form, where it is seen on opening; what a
  // click started (a create, a link) shows below it, by the button.
  const aboutLoading = actionError === null && existing.error === null && !pending && !existing.linking;
  const status = (
    <>
      {slow && (
        <p class="tw-progress" role="status" data-testid="threadwork-progress">
          {pending
            ? 'Creating the task: waiting for the service…'
            : existing.linking
              ? 'Adding the thread: waiting for the service…'
              : `Loading ${waiting.map((load) => load.name).join(', ')}… The service is slow to answer.`}
        </p>
      )}
      <GrantStatus state={grant.state} host={settings?.configured ? new URL(settings.origin).host : ''} />
      <ErrorArea
        error={shownError}
        testId="threadwork-error"
        onOpenSettings={onOpenSettings}
        onRetry={retryAll}
        onGrant={askAccess}
      />
    </>
  );

  return (
    <div class="tw-form" aria-busy={waiting.length > 0 || pending}>
      {keptElsewhere != null && (
        <p class="tw-notice" role="status" data-testid="threadwork-kept-draft">
          Your draft for “{keptElsewhere.subject}” is kept until you create it or discard it.{' '}
          <button type="button" class="tw-link tw-inline" onClick={keptElsewhere.discard}>
            Discard that draft
          </button>
        </p>
      )}
      {draft.restored && created === null && (
        <p class="tw-notice" role="status" data-testid="threadwork-restored-draft">
          Your unsent draft for this thread is back.{' '}
          <button type="button" class="tw-link tw-inline" onClick={draft.discard}>
            Discard it
          </button>
        </p>
      )}
      {!linkable && (
        <p class="tw-notice" role="status" data-testid="threadwork-thread-unknown">
          This thread is not in Threadwork yet: the service has not seen it in your connected mailbox, so the
          task cannot be linked to it. You can still create the task; it will not be linked.
        </p>
      )}
      {aboutLoading && status}
      {created === null ? (
        <TaskForm
          draft={draft}
          destination={to}
          pending={pending}
          linkable={linkable}
          prefilled={draft.draft.notes !== '' && draft.draft.notes === prefilledNotes(thread)}
          titleField={titleField}
          onSubmit={() => submitRef.current()}
        />
      ) : (
        <Confirmation
          task={created}
          assigneeName={memberName(created.assignee?.email)}
          onOpen={() => void open(created.id)}
          onAnother={createAnother}
        />
      )}
      {!aboutLoading && status}
      {created === null && (
        <ExistingTask
          existing={existing}
          teamName={to.team?.name ?? null}
          linked={linked}
          disabled={!configured || !searchable}
          why={linkable ? undefined : 'A thread the service does not know cannot be added to a task.'}
        />
      )}
      <LinkedTasks
        state={threadState}
        configured={configured}
        onComplete={(taskId) => void complete(taskId)}
        onOpen={(taskId) => void open(taskId)}
      />
    </div>
  );
}
