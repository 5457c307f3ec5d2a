/**
 * The background's side of the message protocol: validates each request with the protocol's schemas, builds
 * the typed client from the stored credentials and answers `Result`s. Browser APIs it needs are injected, so
 * tests run it with WXT's fake browser and a real or mocked fetch.
 */
import { LegacyClient, OPT_IN_SCOPES, SCOPES, ThreadworkClient, tokenExpiresAt } from '@threadwork/shared';
import type { ApiKey } from '@threadwork/shared/schemas';
import { type FoundTaskView, type Request, Request as RequestSchema, type Result } from '../protocol.ts';
import {
  type Credentials,
  choiceItem,
  credentialsFromInput,
  credentialsItem,
  fingerprint,
  isComplete,
  originPattern,
  saveCredentials,
  sessionTokenItem,
  toView,
} from '../settings.ts';
import { BackgroundError, toFailure } from './errors.ts';

/** The session token is renewed this long before its `exp`. */
const TOKEN_MARGIN_MS = 60_000;
/** A request from the mailbox should fail fast when the service is down: one retry, 10 s per attempt. */
const CLIENT_TIMEOUT_MS = 10_000;

export interface ServiceDeps {
  fetch: typeof fetch;
  /** Whether the extension may reach this origin (a host permission). */
  hasHostPermission: (pattern: string) => Promise<boolean>;
  openTab: (url: string) => Promise<void>;
  openOptions: () => Promise<void>;
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

/** How many tasks a title search answers: enough to pick from, few enough to read. */
const SEARCH_LIMIT = 20;

/**
 * Open tasks whose title contains the query (case and accents aside), across the team's boards. The API has
 * no title search, so this reads each board's open tasks (`GET /tasks?board_id=&completed=false`).
 */
async function searchTasks(v2: ThreadworkClient, teamId: string, query: string): Promise<FoundTaskView[]> {
  const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const wanted = fold(query.trim());
  const boards = await all(v2.boards.list({ team_id: teamId, limit: 200 }));
  const found: FoundTaskView[] = [];
  for (const board of boards) {
    for await (const task of v2.tasks.list({ board_id: board.id, completed: false, limit: 200 })) {
      if (!fold(task.title).includes(wanted)) continue;
      found.push({ id: task.id, title: task.title, board_name: task.board_name, list_name: task.list_name });
      if (found.length === SEARCH_LIMIT) break;
    }
    if (found.length === SEARCH_LIMIT) break;
  }
  // A title typed in full comes first.
  return found.sort((a, b) => Number(fold(b.title) === wanted) - Number(fold(a.title) === wanted));
}

export function createService(deps: ServiceDeps) {
  const now = deps.now ?? Date.now;
  let cached: { fingerprint: string; client: ThreadworkClient; legacy: LegacyClient } | undefined;

  async function reachable(creds: Credentials | null): Promise<Credentials> {
    if (!isComplete(creds)) {
      throw new BackgroundError('not_configured', 'Threadwork is not configured: open the settings.');
    }
    if (!(await deps.hasHostPermission(originPattern(creds.origin)))) {
      throw new BackgroundError(
        'permission',
        `Threadwork has no access to ${creds.origin} yet: open the settings and save them to allow it.`,
      );
    }
    return creds;
  }

  const credentials = async () => reachable(await credentialsItem.getValue());

  /**
   * A v2 client over a legacy session token, with that legacy client (v1 calls). `keep` stores the token in
   * `storage.session` between worker restarts (the saved credentials); without it the token lives as long
   * as the client (a form under test).
   */
  function buildClient(
    creds: Credentials,
    keep: boolean,
  ): { client: ThreadworkClient; legacy: LegacyClient } {
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
    });
    const accessToken = async ({ refresh }: { refresh: boolean }): Promise<string> => {
      if (!keep) return legacy.getToken({ refresh });
      const stored = await sessionTokenItem.getValue();
      if (!refresh && stored !== null && stored.fingerprint === print && now() < stored.renewAt) {
        return stored.token;
      }
      const token = await legacy.getToken({ refresh: true });
      const expires = tokenExpiresAt(token) ?? now() + 20 * 60_000;
      await sessionTokenItem.setValue({ token, renewAt: expires - TOKEN_MARGIN_MS, fingerprint: print });
      return token;
    };
    const client = new ThreadworkClient({
      baseUrl: `${creds.origin}/v2`,
      accessToken,
      fetch: deps.fetch,
      maxRetries: 1,
      timeout: CLIENT_TIMEOUT_MS,
    });
    return { client, legacy };
  }

  /** The client of the saved credentials, kept while they do not change. */
  async function client(): Promise<{
    client: ThreadworkClient;
    legacy: LegacyClient;
    credentials: Credentials;
  }> {
    const creds = await credentials();
    const print = fingerprint(creds);
    if (cached?.fingerprint !== print) cached = { fingerprint: print, ...buildClient(creds, true) };
    return { client: cached.client, legacy: cached.legacy, credentials: creds };
  }

  /** The key the extension signs in with: the legacy key of the saved API key and key name. */
  const isSelf = (key: ApiKey, creds: Credentials) =>
    key.type === 'legacy' && key.api_key === creds.apiKey && key.name === creds.keyName;

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
      case 'lists.list':
        return all((await client()).client.lists.list(request.board_id, { limit: 200 }));
      case 'thread.linkedTasks': {
        const { client: v2 } = await client();
        const thread = await v2.emailThreads.get(request.thread_id);
        // The thread names its tasks; each is read for its state (a task the user may not see is shown by title).
        return Promise.all(
          (thread.linked_tasks ?? []).map(async (linked) => {
            const task = await v2.tasks.get(linked.id).catch(() => undefined);
            return {
              id: linked.id,
              title: task?.title ?? linked.title,
              completed: task?.completed ?? null,
              board_name: task?.board_name ?? null,
              list_name: task?.list_name ?? null,
            };
          }),
        );
      }
      case 'members.list':
        return all((await client()).client.boards.members(request.board_id, { limit: 200 }));
      case 'task.create': {
        const { client: v2, legacy } = await client();
        const task = await v2.tasks.create(request.task, { idempotencyKey: request.idempotency_key });
        // Remember only where the task really landed: a choice the service did not confirm is never the default.
        const { choice } = request;
        if (task.list_id === choice.list_id && task.board_id === choice.board_id)
          await choiceItem.setValue(choice);
        if (request.assignee_email === undefined) return task;
        // v2 has no assignment; v1 shares the task's id. A retry replays the create (same key) and assigns again.
        try {
          await legacy.assignTask(task.id, request.assignee_email);
        } catch (error) {
          const failure = toFailure(error);
          throw new BackgroundError(
            failure.kind,
            `The task was created, but assigning it failed: ${failure.message}`,
          );
        }
        return v2.tasks.get(task.id).catch(() => task);
      }
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
      case 'options.open':
        await deps.openOptions();
        return { opened: true };
      case 'keys.list': {
        const { client: v2, credentials: creds } = await client();
        const keys = await all(v2.apiKeys.list({ limit: 200 }));
        return {
          keys,
          scopes: [...SCOPES],
          opt_in: [...OPT_IN_SCOPES],
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
          await credentialsItem.setValue({ ...creds, apiSecret: '' });
          await sessionTokenItem.setValue(null);
          cached = undefined;
        }
        return { id: request.key_id, signed_out: signedOut };
      }
    }
  }

  return {
    /** Answers one message; never throws. */
    async handle(message: unknown): Promise<Result<unknown>> {
      const parsed = RequestSchema.safeParse(message);
      if (!parsed.success) {
        const details = parsed.error.issues
          .map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`)
          .join('; ');
        return { ok: false, error: { kind: 'invalid', message: `Invalid request: ${details}` } };
      }
      try {
        return { ok: true, data: await serve(parsed.data) };
      } catch (error) {
        return { ok: false, error: toFailure(error) };
      }
    },
  };
}
