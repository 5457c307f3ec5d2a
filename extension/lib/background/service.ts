/**
 * The background's side of the message protocol: validates each request with the protocol's schemas, builds
 * the typed client from the stored credentials and answers `Result`s. Browser APIs it needs are injected, so
 * tests run it with WXT's fake browser and a real or mocked fetch.
 */
import { AuthenticationError, LegacyClient, NotFoundError, ThreadworkClient } from '@threadwork/shared';
import type { ApiKey } from '@threadwork/shared/schemas';
import {
  type FoundTaskView,
  PERSONAL,
  type Request,
  Request as RequestSchema,
  Responses,
  type Result,
  TASK_CREATED,
} from '../protocol.ts';
import { linkedTaskView } from '../protocol-values.ts';
import { originPattern } from '../service-url.ts';
import {
  type Credentials,
  choiceItem,
  credentialsFromInput,
  credentialsItem,
  draftsItem,
  fingerprint,
  isComplete,
  saveCredentials,
  sessionTokenItem,
  toView,
} from '../settings.ts';
import { BackgroundError, toFailure } from './errors.ts';
import { prioritized } from './pool.ts';

/** A request from the mailbox should fail fast when the service is down: one retry, 10 s per attempt. */
const CLIENT_TIMEOUT_MS = 10_000;

export interface ServiceDeps {
  fetch: typeof fetch;
  /** Whether the extension may reach this origin (a host permission). */
  hasHostPermission: (pattern: string) => Promise<boolean>;
  openTab: (url: string) => Promise<void>;
  /** Opens the settings page; `grant`: at its button that asks for access to the service. */
  openOptions: (grant?: boolean) => Promise<void>;
  /** The browser's keyboard shortcuts (`commands`); without it the shortcut reads as unset. */
  shortcuts?: ShortcutDeps;
  now?: () => number;
}

export interface ShortcutDeps {
  /** The key of the panel's command as the browser has it now: '' or undefined when unset. */
  current: () => Promise<string | undefined>;
  /** Where this browser lets the user set it, as the UI says it. */
  where: string;
  /** Opens the browser's shortcut page; false when the browser cannot. */
  open: () => Promise<boolean>;
}

/** The service's web page of a task, opened by "open". */
export function taskUrl(origin: string, taskId: string): string {
  return `${origin}/tasks/${encodeURIComponent(taskId)}`;
}

/** Every item of every page, read one page at a time. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** How long an answer asked for ahead of the panel waits for it (its frame loads in far less). */
const WARM_FOR_MS = 10_000;

/** `run` over every item, at most `together` at once; the answers in the items' order. */
async function mapInTurns<T, R>(
  items: readonly T[],
  together: number,
  run: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(together, items.length) }, worker));
  return answers;
}

/** How many tasks a title search answers: enough to pick from, few enough to read. */
const SEARCH_LIMIT = 20;

/** A title as the search compares it: case, accents and punctuation aside, one space between words. */
function searchable(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Open tasks whose title holds every word of the query (case, accents and punctuation aside: "orchard foods
 * rollout" finds "Orchard Foods: rollout"), across the team's boards. The API has no title search, so this
 * reads each board's open tasks (`GET /tasks?board_id=&completed=false`). The whole title typed comes first,
 * then titles holding the query's words in its order, then the rest.
 */
async function searchTasks(v2: ThreadworkClient, teamId: string, query: string): Promise<FoundTaskView[]> {
  const wanted = searchable(query);
  const words = wanted.split(' ').filter((word) => word !== '');
  const boards = await all(v2.boards.list({ team_id: teamId, limit: 200 }));
  const found: (FoundTaskView & { rank: number })[] = [];
  for (const board of boards) {
    for await (const task of v2.tasks.list({ board_id: board.id, completed: false, limit: 200 })) {
      const title = searchable(task.title);
      if (!words.every((word) => title.includes(word))) continue;
      const rank = title === wanted ? 0 : title.includes(wanted) ? 1 : 2;
      found.push({
        id: task.id,
        title: task.title,
        board_name: task.board_name,
        list_name: task.list_name,
        rank,
      });
      if (found.length === SEARCH_LIMIT) break;
    }
    if (found.length === SEARCH_LIMIT) break;
  }
  return found.sort((a, b) => a.rank - b.rank).map(({ rank: _, ...task }) => task);
}

/** Whether the user's connected mailbox has this thread. */
async function knowsThread(v2: ThreadworkClient, threadId: string): Promise<boolean> {
  return v2.emailThreads.get(threadId).then(
    () => true,
    (error: unknown) => !(error instanceof NotFoundError),
  );
}

/**
 * The token endpoint refusing the saved key (it names the field: the key's name, the key or the secret) while
 * the extension works from its saved settings means the key changed under it, most often revoked elsewhere:
 * said so, rather than as the service's "no API key named …". A form under test keeps the service's words.
 */
function keyRefused(error: unknown, request: Request): unknown {
  const field = (error as { details?: { field?: unknown } } | null)?.details?.field;
  if (!(error instanceof AuthenticationError) || typeof field !== 'string') return error;
  if (request.type === 'settings.test' || request.type === 'settings.save') return error;
  return new BackgroundError(
    'bad_credentials',
    'The service no longer accepts the key Threadwork signs in with: it may have been revoked or changed.',
  );
}

/** The v2 client for what the user waits on, for what may come later and last (pool.ts), and v1's. */
interface Clients {
  client: ThreadworkClient;
  later: ThreadworkClient;
  last: ThreadworkClient;
  legacy: LegacyClient;
}

export function createService(deps: ServiceDeps) {
  const now = deps.now ?? Date.now;
  /** Draft writes one after the other: two tabs' panels never lose each other's. */
  let draftWrites: Promise<unknown> = Promise.resolve();
  const fetches = prioritized(deps.fetch);
  let cached: (Clients & { fingerprint: string }) | undefined;

  async function reachable(creds: Credentials | null): Promise<Credentials> {
    if (!isComplete(creds)) {
      const saved = creds as Credentials | null;
      throw saved?.signedOut === true
        ? new BackgroundError('signed_out', `The key “${saved.keyName}” was revoked.`)
        : new BackgroundError('not_configured', '');
    }
    if (!(await deps.hasHostPermission(originPattern(creds.origin)))) {
      throw new BackgroundError('permission', `Threadwork may not reach ${new URL(creds.origin).host} yet.`);
    }
    return creds;
  }

  const credentials = async () => reachable(await credentialsItem.getValue());

  /**
   * A v2 client over a legacy session token, with that legacy client (v1 calls). `keep` stores the token in
   * `storage.session` between worker restarts (the saved credentials); without it the token lives as long
   * as the client (a form under test).
   */
  function buildClient(creds: Credentials, keep: boolean): Clients {
    const print = fingerprint(creds);
    const legacy = new LegacyClient({
      origin: creds.origin,
      email: creds.email,
      apiKey: creds.apiKey,
      apiSecret: creds.apiSecret,
      apiKeyName: creds.keyName,
      fetch: deps.fetch,
      maxRetries: 1,
      timeout: CLIENT_TIMEOUT_MS,
      now,
      // The v1 client keeps the token's lifecycle; storage.session keeps it across worker restarts.
      tokenStore: keep
        ? {
            get: async () => {
              const stored = await sessionTokenItem.getValue();
              return stored?.fingerprint === print ? stored : null;
            },
            set: (stored) => sessionTokenItem.setValue({ ...stored, fingerprint: print }),
          }
        : undefined,
    });
    const accessToken = (context: { refresh: boolean }) => legacy.getToken(context);
    const v2 = (fetch: typeof globalThis.fetch) =>
      new ThreadworkClient({
        baseUrl: `${creds.origin}/v2`,
        accessToken,
        fetch,
        maxRetries: 1,
        timeout: CLIENT_TIMEOUT_MS,
      });
    return { client: v2(fetches.first), later: v2(fetches.later), last: v2(fetches.last), legacy };
  }

  /**
   * The client of the saved credentials, kept while they do not change; `later` sends what the panel can
   * show a little later, `last` what nothing waits for yet (pool.ts).
   */
  async function client(): Promise<Clients & { credentials: Credentials }> {
    const creds = await credentials();
    const print = fingerprint(creds);
    if (cached?.fingerprint !== print) cached = { fingerprint: print, ...buildClient(creds, true) };
    const { client: first, later, last, legacy } = cached;
    return { client: first, later, last, legacy, credentials: creds };
  }

  /** The key the extension signs in with: the legacy key of the saved API key and key name. */
  const isSelf = (key: ApiKey, creds: Credentials) =>
    key.type === 'legacy' && key.api_key === creds.apiKey && key.name === creds.keyName;

  /**
   * v2 creates the task (with the panel's Idempotency-Key), then sets its custom fields (v2 takes them on
   * update) and assigns it (v1: v2 has no assignment). When a later step fails the task exists: the failure
   * says so (`task_created`), and a retry replays the create with the same key (the service answers the same
   * task) and runs the later steps again.
   */
  async function createTask(request: Extract<Request, { type: 'task.create' }>) {
    const { client: v2, legacy } = await client();
    let task = await v2.tasks
      .create(request.task, { idempotencyKey: request.idempotency_key })
      .catch(async (error: unknown) => {
        const threadId = request.task.thread_id;
        // A 404 for a thread the service does not know reads as what it is, not as a missing item.
        if (error instanceof NotFoundError && threadId !== undefined && !(await knowsThread(v2, threadId)))
          throw new BackgroundError('thread_unknown', `Thread ${threadId} is not in your connected mailbox.`);
        throw error;
      });
    // Remember only where the task really landed: a choice the service did not confirm is never the default.
    const { choice } = request;
    if (task.list_id === choice.list_id && task.board_id === choice.board_id)
      await choiceItem.setValue(choice);
    const after = async (step: string, run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        const failure = toFailure(error);
        throw new BackgroundError(
          failure.kind,
          `The task was created, but ${step} failed: ${failure.message}`,
          TASK_CREATED,
        );
      }
    };
    if (request.custom_fields !== undefined) {
      const fields = request.custom_fields;
      await after('setting its fields', async () => {
        task = await v2.tasks.update(task.id, { custom_fields: fields });
      });
    }
    if (request.assignee_email === undefined) return task;
    const assignee = request.assignee_email;
    await after('assigning it', () => legacy.assignTask(task.id, assignee));
    return v2.tasks.get(task.id).catch(() => task);
  }

  async function serve(request: Request): Promise<unknown> {
    switch (request.type) {
      case 'settings.get':
        return { settings: toView(await credentialsItem.getValue()), choice: await choiceItem.getValue() };
      case 'settings.save': {
        const saved = await saveCredentials(request.settings);
        cached = undefined;
        return toView(saved);
      }
      case 'me.get':
        return (await client()).client.me.get();
      case 'settings.test': {
        const creds = await reachable(
          credentialsFromInput(request.settings, await credentialsItem.getValue()),
        );
        return buildClient(creds, false).client.me.get();
      }
      case 'shortcut.get': {
        const shortcut = await deps.shortcuts?.current();
        return { shortcut: shortcut || null, where: deps.shortcuts?.where ?? '' };
      }
      case 'shortcut.configure':
        return { opened: (await deps.shortcuts?.open()) ?? false };
      case 'teams.list':
        return all((await client()).client.teams.list({ limit: 200 }));
      case 'boards.list':
        return all((await client()).client.boards.list({ team_id: request.team_id, limit: 200 }));
      case 'boards.personal': {
        // First when the last task went to a personal board (the panel waits for them then), else last:
        // behind the remembered board's members and fields (pool.ts).
        const { client: first, last } = await client();
        const wanted = (await choiceItem.getValue())?.team_id === PERSONAL;
        return all((wanted ? first : last).boards.listPersonal({ limit: 200 }));
      }
      case 'fields.list':
        return all((await client()).later.customFields.list(request.board_id, { limit: 200 }));
      case 'lists.list':
        return all((await client()).client.lists.list(request.board_id, { limit: 200 }));
      case 'thread.get': {
        const { client: v2 } = await client();
        const thread = await v2.emailThreads.get(request.thread_id).catch((error: unknown) => {
          // Not in the user's connected mailbox (another account, or not synced yet): a state, not a failure.
          if (error instanceof NotFoundError) return null;
          throw error;
        });
        if (thread === null) return { known: false, tasks: [] };
        // The thread names its tasks by id and title; their state is read apart (tasks.states).
        return {
          known: true,
          tasks: (thread.linked_tasks ?? []).map((task) => ({
            id: task.id,
            title: task.title,
            completed: null,
            board_name: null,
            list_name: null,
          })),
        };
      }
      case 'tasks.states': {
        // Two at a time: a thread linked to many tasks never takes every connection to a slow service from the
        // panel's other requests. A task the user may not see is left out (the panel shows it by its title).
        const { later: v2 } = await client();
        const tasks = await mapInTurns(request.task_ids, 2, (id) => v2.tasks.get(id).catch(() => undefined));
        return tasks.flatMap((task) => (task === undefined ? [] : [linkedTaskView(task)]));
      }
      case 'members.list':
        return all((await client()).later.boards.members(request.board_id, { limit: 200 }));
      case 'task.create':
        return createTask(request);
      case 'tasks.search':
        return searchTasks((await client()).client, request.team_id, request.query);
      case 'task.linkThread':
        return (await client()).client.tasks.linkThread(request.task_id, { thread_id: request.thread_id });
      case 'task.complete':
        return (await client()).client.tasks.complete(request.task_id);
      case 'task.open': {
        const creds = await credentials();
        const url = taskUrl(creds.origin, request.task_id);
        await deps.openTab(url);
        return { url };
      }
      case 'panel.warm':
        return warm();
      case 'access.has':
        return { granted: await deps.hasHostPermission(originPattern(request.origin)) };
      case 'options.open':
        await deps.openOptions(request.grant);
        return { opened: true };
      case 'drafts.get':
        return draftsItem.getValue();
      case 'drafts.put': {
        const { thread_id: threadId, draft } = request;
        const write = draftWrites.then(async () => {
          const { [threadId]: _, ...others } = await draftsItem.getValue();
          await draftsItem.setValue(draft === null ? others : { ...others, [threadId]: draft });
        });
        draftWrites = write.catch(() => {});
        await write;
        return { thread_id: threadId };
      }
      case 'keys.list': {
        const { client: v2, credentials: creds } = await client();
        const keys = await all(v2.apiKeys.list({ limit: 200 }));
        return {
          keys,
          self_id: keys.find((key) => isSelf(key, creds))?.id ?? null,
        };
      }
      case 'keys.create':
        return (await client()).client.apiKeys.create(request.key);
      case 'keys.revoke': {
        const { client: v2, credentials: creds } = await client();
        const key = (await all(v2.apiKeys.list({ limit: 200 }))).find(({ id }) => id === request.key_id);
        await v2.apiKeys.delete(request.key_id);
        // The extension's own key: its secret is useless now, so the extension signs out (the rest stays).
        const signedOut = key !== undefined && isSelf(key, creds);
        if (signedOut) {
          await credentialsItem.setValue({ ...creds, apiSecret: '', signedOut: true });
          await sessionTokenItem.setValue(null);
          cached = undefined;
        }
        return { id: request.key_id, signed_out: signedOut };
      }
    }
  }

  /** One request's answer as a `Result`; never throws. */
  async function answer(request: Request): Promise<Result<unknown>> {
    try {
      // What the background answers is held to the protocol too: a page never reads a shape it was not promised.
      const data = Responses[request.type].parse(await serve(request));
      return { ok: true, data };
    } catch (error) {
      return { ok: false, error: toFailure(keyRefused(error, request)) };
    }
  }

  /**
   * Answers asked for ahead of the panel (`panel.warm`), each kept for the panel's first identical request
   * within WARM_FOR_MS: what it waits for first is on its way while its frame still loads. A failure is not
   * kept once it is known: a later ask (a Retry, or a panel opened once the service is back) asks again.
   */
  const ahead = new Map<string, { answer: Promise<Result<unknown>>; until: number }>();
  const keyOf = (request: Request) =>
    JSON.stringify(Object.entries(request).sort(([a], [b]) => a.localeCompare(b)));
  /**
   * The warm under way, until it has said what it asks for: the panel's asks wait for it, so that one that
   * overtakes it (the warm first reads the settings) takes its answer, rather than the warm asking again
   * behind it and keeping an answer no one asked for, which a later ask would then take, old.
   */
  let warming: Promise<unknown> = Promise.resolve();

  function warm(): Promise<{ warmed: boolean }> {
    const started = warmAhead();
    warming = started.catch(() => {});
    return started;
  }

  async function warmAhead(): Promise<{ warmed: boolean }> {
    for (const [key, early] of ahead) if (early.until <= now()) ahead.delete(key);
    // Nothing is asked ahead where every answer would be a failure (not set up, no access).
    const ready = await credentials().then(
      () => true,
      () => false,
    );
    if (!ready) return { warmed: false };
    const choice = await choiceItem.getValue();
    const requests: Request[] = [{ type: 'teams.list' }, { type: 'boards.personal' }];
    if (choice !== null) {
      if (choice.team_id !== PERSONAL) requests.push({ type: 'boards.list', team_id: choice.team_id });
      requests.push(
        { type: 'lists.list', board_id: choice.board_id },
        { type: 'members.list', board_id: choice.board_id },
        { type: 'fields.list', board_id: choice.board_id },
      );
    }
    for (const request of requests) {
      const key = keyOf(request);
      if (ahead.has(key)) continue;
      const early = { answer: answer(request), until: now() + WARM_FOR_MS };
      ahead.set(key, early);
      void early.answer.then((result) => {
        if (!result.ok && ahead.get(key) === early) ahead.delete(key);
      });
    }
    return { warmed: true };
  }

  return {
    /** Answers one message; never throws. */
    async handle(message: unknown): Promise<Result<unknown>> {
      const parsed = RequestSchema.safeParse(message);
      if (!parsed.success) {
        const issues = parsed.error.issues;
        // The settings form's fields have messages of their own, written for the user (lib/protocol.ts).
        const message = issues.every((issue) => issue.path[0] === 'settings')
          ? issues.map((issue) => issue.message).join(' ')
          : `Invalid request: ${issues.map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`).join('; ')}`;
        return { ok: false, error: { kind: 'invalid', message } };
      }
      if (parsed.data.type !== 'panel.warm') await warming;
      const key = keyOf(parsed.data);
      const early = ahead.get(key);
      if (early !== undefined && early.until > now()) {
        ahead.delete(key);
        return early.answer;
      }
      return answer(parsed.data);
    },
  };
}
