/**
 * The background's side of the message protocol: validates each request with the protocol's schemas, builds
 * the typed client from the stored credentials and answers `Result`s. Browser APIs it needs are injected, so
 * tests run it with WXT's fake browser and a real or mocked fetch.
 */
import { LegacyClient, SCOPES, ThreadworkClient } from '@threadwork/shared';
import { type Request, Request as RequestSchema, type Result } from '../protocol.ts';
import {
  type Credentials,
  choiceItem,
  credentialsItem,
  fingerprint,
  isComplete,
  originPattern,
  saveCredentials,
  sessionTokenItem,
  toView,
} from '../settings.ts';
import { BackgroundError, toFailure } from './errors.ts';

/** A request from the mailbox should fail fast when the service is down: one retry, 10 s per attempt. */
const CLIENT_TIMEOUT_MS = 10_000;

export interface ServiceDeps {
  fetch: typeof fetch;
  /** Whether the extension may reach this origin (a host permission). */
  hasHostPermission: (pattern: string) => Promise<boolean>;
  openTab: (url: string) => Promise<void>;
  openOptions: () => Promise<void>;
  now?: () => number;
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

export function createService(deps: ServiceDeps) {
  const now = deps.now ?? Date.now;
  let cached: { fingerprint: string; client: ThreadworkClient } | undefined;

  async function credentials(): Promise<Credentials> {
    const stored = await credentialsItem.getValue();
    if (!isComplete(stored)) {
      throw new BackgroundError('not_configured', 'Threadwork is not configured: open the settings.');
    }
    if (!(await deps.hasHostPermission(originPattern(stored.origin)))) {
      throw new BackgroundError(
        'permission',
        `Threadwork has no access to ${stored.origin} yet: open the settings and save them to allow it.`,
      );
    }
    return stored;
  }

  /** The v2 client over the legacy session token, which is kept in `storage.session` between worker restarts. */
  async function client(): Promise<{ client: ThreadworkClient; credentials: Credentials }> {
    const creds = await credentials();
    const print = fingerprint(creds);
    if (cached?.fingerprint === print) return { client: cached.client, credentials: creds };
    // The v1 client keeps the token's lifecycle; storage.session keeps it across worker restarts.
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
      tokenStore: {
        get: async () => {
          const stored = await sessionTokenItem.getValue();
          return stored?.fingerprint === print ? stored : null;
        },
        set: (stored) => sessionTokenItem.setValue({ ...stored, fingerprint: print }),
      },
    });
    const accessToken = (context: { refresh: boolean }) => legacy.getToken(context);
    const v2 = new ThreadworkClient({
      baseUrl: `${creds.origin}/v2`,
      accessToken,
      fetch: deps.fetch,
      maxRetries: 1,
      timeout: CLIENT_TIMEOUT_MS,
    });
    cached = { fingerprint: print, client: v2 };
    return { client: v2, credentials: creds };
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
      case 'task.create': {
        const { client: v2 } = await client();
        const task = await v2.tasks.create(request.task, { idempotencyKey: request.idempotency_key });
        await choiceItem.setValue(request.choice);
        return task;
      }
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
        const keys = await all((await client()).client.apiKeys.list({ limit: 200 }));
        return { keys, scopes: [...SCOPES] };
      }
      case 'keys.create':
        return (await client()).client.apiKeys.create(request.key);
      case 'keys.revoke': {
        await (await client()).client.apiKeys.delete(request.key_id);
        return { id: request.key_id };
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
