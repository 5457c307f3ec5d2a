// The console's API and its page shell, loaded on the first console request (routes.ts). A thin layer
// over the domain, acting as the console's user: every read is a domain query, every write a domain
// command in `runInTransaction`, exactly as the v2 routes do it, so events, v1 hook deliveries and v2
// webhook deliveries follow as for an API call (docs/console.md says why the pages do not call /v2).
import {
  ConsoleAssignRequest,
  type ConsoleBoardView,
  ConsoleCompleteRequest,
  ConsoleCreateKeyRequest,
  type ConsoleDeliveries,
  ConsoleDeliveriesQuery,
  ConsoleInboundRequest,
  type ConsoleKeys,
  type ConsoleMailbox,
  ConsoleNewTaskRequest,
  type ConsoleOverview,
  type ConsoleTaskPage,
  type ConsoleTaskView,
  type ConsoleThreadView,
  CreateBoardRequest,
  CreateListRequest,
  CreateWebhookRequest,
  DEFAULT_SCOPES,
  type EmailAddress,
  EVENT_TYPES,
  LabelsRequest,
  MoveTaskRequest,
  OPT_IN_SCOPES,
  ReadStateRequest,
  ReorderTaskRequest,
  SCOPES,
  type Scope,
  SHADES,
  UpdateBoardRequest,
  UpdateListRequest,
  UpdateTaskRequest,
  UpdateWebhookRequest,
  V1_ACTIONS,
} from '@threadwork/shared/schemas';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Locking } from '../db/transaction.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../domain/api-keys.ts';
import {
  createSharedBoard,
  getBoard,
  listBoardMembers,
  listPersonalBoards,
  listTeamBoards,
  renameBoard,
} from '../domain/boards.ts';
import { listBoardFields } from '../domain/custom-fields.ts';
import {
  deliveryDetail,
  deliveryPage,
  replayAnyDelivery,
  retryFailed,
  subscriptionsOf,
} from '../domain/delivery-log.ts';
import { invalidField, notFound, ServiceError } from '../domain/errors.ts';
import { type Change, feedPosition, followChanges } from '../domain/events/feed.ts';
import { createList, listBoardLists, renameList } from '../domain/lists.ts';
import {
  changeMailbox,
  findThread,
  getThread,
  linkedTasksOf,
  listLabels,
  mailboxState,
  receiveInboundMessage,
  searchThreads,
} from '../domain/mailbox/index.ts';
import { changeLabels, setReadState } from '../domain/mailbox/thread-state.ts';
import type { Page } from '../domain/pagination.ts';
import {
  archiveTask,
  assignTask,
  completeTask,
  createTask,
  deleteTask,
  moveTask,
  reorderTask,
  unassignTask,
  uncompleteTask,
  updateTask,
} from '../domain/tasks/commands.ts';
import { getTaskAndArchive, listTasks, taskEvents } from '../domain/tasks/queries.ts';
import { listTeams } from '../domain/teams.ts';
import { runInTransaction } from '../domain/transaction.ts';
import { unsubscribeV1 } from '../domain/v1-hooks.ts';
import { checkWebhookTarget } from '../domain/webhook-targets.ts';
import {
  createSubscription,
  deleteSubscription,
  rotateSecret,
  sendTestEvent,
  updateSubscription,
} from '../domain/webhooks.ts';
import { ok } from '../http/envelope.ts';
import { presentBoard, presentList, presentTeam } from '../http/v2/present.ts';
import { parseRequest } from '../http/validate.ts';
import { CONSOLE_API_PREFIX, receiverUrl } from './addresses.ts';
import { consoleAssets } from './bundle.ts';
import { receiverView } from './receiver.ts';

/** Tasks per list page: enough to fill a tall screen, small enough that a 5,000-task list loads at once. */
export const TASKS_PER_PAGE = 50;
const PAGE_MAX = 200;
/** What a live list reloads at most at once: the tasks it has shown so far. */
const MAX_RELOAD = 5000;

/** Every page of a paginated domain query (teams, boards, lists, fields: a handful each). */
async function all<T>(read: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await read(cursor);
    items.push(...page.items);
    if (!page.pagination.next_cursor) break;
    cursor = page.pagination.next_cursor;
  }
  return items;
}

// ---------------------------------------------------------------------------------------------------
// The shell and the bundle

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The app's page: the browser's router draws what the path names. `status` 404 is the page for a path
 * the console does not have (its router says so too). Each page sets its own title once it knows what
 * it shows; this one stands until then. It carries the page's token for its script to send back
 * (routes.ts, `requirePageToken`).
 */
export async function sendShell(
  reply: FastifyReply,
  status: 200 | 404,
  token: string,
): Promise<FastifyReply> {
  const assets = await consoleAssets();
  const script = `/_console/assets/${escapeAttribute(assets.script)}`;
  const title = status === 404 ? 'Page not found · Threadwork console' : 'Threadwork console';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="console-token" content="${escapeAttribute(token)}">
<title>${title}</title>
<link rel="icon" href="data:,">
<link rel="modulepreload" href="${script}">
<style>${assets.css}</style>
<script type="module" src="${script}"></script>
</head>
<body>
<div id="app"></div>
</body>
</html>
`;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('vary', 'accept')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header(
      'content-security-policy',
      "default-src 'self'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    )
    .send(html);
}

export async function sendAsset(reply: FastifyReply, name: string): Promise<FastifyReply> {
  const assets = await consoleAssets();
  const file = assets.files.get(name);
  if (!file) throw notFound('console asset', name);
  return reply
    .code(200)
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('x-content-type-options', 'nosniff')
    .send(file);
}

// ---------------------------------------------------------------------------------------------------
// Live: server-sent events from the change feed

/** Keeps proxies and the browser from timing the stream out; a comment line, ignored by EventSource. */
const HEARTBEAT_MS = 15_000;

/**
 * Streams every committed change to the page as one event of JSON (an array of changes) whose id is the
 * feed's position after it. It begins with a `sync` event naming the position the stream starts at: a
 * page read at an older position, or at another instance's (the server restarted), reads again.
 */
export function streamChanges(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  streams: Set<() => void>,
): void {
  reply.hijack();
  const raw = reply.raw;
  const { position, unfollow } = followChanges(app.ctx.db, (changes: readonly Change[], at: string) => {
    raw.write(`id: ${at}\ndata: ${JSON.stringify(changes)}\n\n`);
  });
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  raw.write(`retry: 500\n\nevent: sync\ndata: ${JSON.stringify(position)}\n\n`);
  const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    unfollow();
    clearInterval(heartbeat);
    streams.delete(end);
    raw.end();
  };
  streams.add(end);
  request.raw.on('close', end);
}

// ---------------------------------------------------------------------------------------------------
// The API

interface Call {
  app: FastifyInstance;
  userId: string;
  params: string[];
  query: Record<string, string | undefined>;
  body: unknown;
}

type Handler = (call: Call) => Promise<unknown>;

/** The feed's position when an answer's read began (every answer of the console's API carries it). */
const POSITION_HEADER = 'x-console-at';

const routes: { method: string; pattern: RegExp; handler: Handler }[] = [];
const on = (method: string, path: string, handler: Handler) => {
  const pattern = new RegExp(`^${path.replace(/:\w+/g, '([^/]+)')}$`);
  routes.push({ method, pattern, handler });
};

export async function handleApi(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const url = new URL(request.url, 'http://console');
  const path = url.pathname.slice(CONSOLE_API_PREFIX.length);
  const user = app.ctx.consoleUser;
  if (!user) throw notFound('console', path);
  // Where the feed stood as this read began: the page compares it with its stream's (see feed.ts).
  reply.header(POSITION_HEADER, feedPosition(app.ctx.db));
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params = match.slice(1).map((part) => decodeURIComponent(part));
    const data = await route.handler({
      app,
      userId: user.userId,
      params,
      query: Object.fromEntries(url.searchParams),
      body: request.body,
    });
    return ok(reply, data).header('cache-control', 'no-store');
  }
  throw notFound('console API path', path);
}

const param = (call: Call, index: number) => call.params[index] ?? '';
const ctxOf = (call: Call) => call.app.ctx;

// Boards

on('GET', 'overview', async (call): Promise<ConsoleOverview> => {
  const { db } = ctxOf(call);
  const user = ctxOf(call).consoleUser!;
  const teams = await all((cursor) => listTeams(db, call.userId, { limit: PAGE_MAX, cursor }));
  const rows = await Promise.all(
    teams.map(async (team) => ({
      team: presentTeam(team),
      // An unpaid team's boards are gated, for the console as for the API.
      boards: team.subscription?.paid
        ? (await all((cursor) => listTeamBoards(db, call.userId, team.id, { limit: PAGE_MAX, cursor }))).map(
            presentBoard,
          )
        : null,
    })),
  );
  const personal = await all((cursor) => listPersonalBoards(db, call.userId, { limit: PAGE_MAX, cursor }));
  return {
    user: { user_id: user.userId, email: user.email, display_name: user.displayName },
    teams: rows,
    personal_boards: personal.map(presentBoard),
  };
});

/**
 * A list's tasks from `cursor`, `count` of them (a page; more when a live page reloads what it had
 * already loaded), read in pages of at most PAGE_MAX.
 */
async function taskPage(
  call: Call,
  listId: string,
  cursor: string | undefined,
  count = TASKS_PER_PAGE,
): Promise<ConsoleTaskPage> {
  const tasks: ConsoleTaskPage['tasks'] = [];
  let next: string | null | undefined = cursor;
  do {
    const page = await listTasks(
      ctxOf(call).db,
      call.userId,
      { list_id: listId },
      { limit: Math.min(PAGE_MAX, count - tasks.length), cursor: next ?? undefined },
    );
    tasks.push(...page.items);
    next = page.pagination.next_cursor;
  } while (next && tasks.length < count);
  return { tasks, next_cursor: next ?? null };
}

on('GET', 'boards/:id', async (call): Promise<ConsoleBoardView> => {
  const { db } = ctxOf(call);
  const boardId = param(call, 0);
  const board = await getBoard(db, call.userId, boardId);
  const [lists, fields] = await Promise.all([
    all((cursor) => listBoardLists(db, call.userId, board.id, { limit: PAGE_MAX, cursor })),
    all((cursor) => listBoardFields(db, call.userId, board.id, { limit: PAGE_MAX, cursor })),
  ]);
  return {
    board: presentBoard(board),
    lists: await Promise.all(
      lists.map(async (list) => ({ list: presentList(list), ...(await taskPage(call, list.id, undefined)) })),
    ),
    custom_fields: fields,
    shades: [...SHADES],
  };
});

on('GET', 'lists/:id/tasks', (call) => {
  const count = Number(call.query['count'] ?? TASKS_PER_PAGE);
  if (!Number.isInteger(count) || count < 1 || count > MAX_RELOAD) {
    throw invalidField('count', `must be an integer from 1 to ${MAX_RELOAD}`);
  }
  return taskPage(call, param(call, 0), call.query['cursor'] || undefined, count);
});

// A board of a team, and lists, made and renamed as v2 makes them (POST /v2/boards and the rest).

on('POST', 'boards', async (call) => {
  const input = parseRequest(CreateBoardRequest, call.body, 'body');
  return presentBoard(
    await write(call, (tx) => createSharedBoard(tx, call.userId, input, ctxOf(call).now())),
  );
});

on('PATCH', 'boards/:id', async (call) => {
  const { name } = parseRequest(UpdateBoardRequest, call.body, 'body');
  return presentBoard(await write(call, (tx) => renameBoard(tx, call.userId, param(call, 0), name)));
});

on('POST', 'boards/:id/lists', async (call) => {
  const input = parseRequest(CreateListRequest, call.body, 'body');
  return presentList(
    await write(call, (tx) => createList(tx, call.userId, param(call, 0), input, ctxOf(call).now())),
  );
});

on('PATCH', 'lists/:id', async (call) => {
  const { name } = parseRequest(UpdateListRequest, call.body, 'body');
  return presentList(await write(call, (tx) => renameList(tx, call.userId, param(call, 0), name)));
});

// Tasks

/**
 * A write, as the v2 route for it runs it: the task commands and the webhook writes lock the rows they
 * decide on (`rows`); mail arriving runs alone (`everything`, as POST /_control/inbound-message does).
 */
const write = <T>(call: Call, work: Parameters<typeof runInTransaction<T>>[1], locking: Locking = 'rows') =>
  runInTransaction(ctxOf(call), work, locking);

on('POST', 'tasks', (call) => {
  const input = parseRequest(ConsoleNewTaskRequest, call.body, 'body');
  return write(call, (tx) => createTask(tx, call.userId, input, ctxOf(call).now()));
});

on('POST', 'tasks/:id/complete', (call) => {
  const { completed } = parseRequest(ConsoleCompleteRequest, call.body, 'body');
  const command = completed ? completeTask : uncompleteTask;
  return write(call, (tx) => command(tx, call.userId, param(call, 0), ctxOf(call).now()));
});

on('POST', 'tasks/:id/move', (call) => {
  const move = parseRequest(MoveTaskRequest, call.body, 'body');
  return write(call, (tx) => moveTask(tx, call.userId, param(call, 0), move, ctxOf(call).now()));
});

on('POST', 'tasks/:id/reorder', (call) => {
  const reorder = parseRequest(ReorderTaskRequest, call.body, 'body');
  return write(call, (tx) => reorderTask(tx, call.userId, param(call, 0), reorder, ctxOf(call).now()));
});

on('PATCH', 'tasks/:id', (call) => {
  const patch = parseRequest(UpdateTaskRequest, call.body, 'body');
  return write(call, (tx) => updateTask(tx, call.userId, param(call, 0), patch, ctxOf(call).now()));
});

on('POST', 'tasks/:id/archive', (call) =>
  write(call, (tx) => archiveTask(tx, call.userId, param(call, 0), ctxOf(call).now())),
);

on('DELETE', 'tasks/:id', (call) =>
  write(call, (tx) => deleteTask(tx, call.userId, param(call, 0), ctxOf(call).now())),
);

// v2 has no assignment (v1's assignTask and unassignTask do it): the same commands, by the member's email.
on('POST', 'tasks/:id/assignee', (call) => {
  const { email } = parseRequest(ConsoleAssignRequest, call.body, 'body');
  const taskId = param(call, 0);
  const now = ctxOf(call).now();
  return write(call, async (tx) => {
    if (email !== null) return assignTask(tx, call.userId, taskId, email, now);
    const { task } = await getTaskAndArchive(tx, call.userId, taskId);
    if (task.assignee?.email == null) return task;
    return unassignTask(tx, call.userId, taskId, task.assignee.email, now);
  });
});

on('GET', 'tasks/:id', async (call): Promise<ConsoleTaskView> => {
  const { db } = ctxOf(call);
  const { task, archivedAt } = await getTaskAndArchive(db, call.userId, param(call, 0));
  const boardId = task.board_id;
  const ofBoard = <T>(read: (boardId: string) => Promise<T[]>) => (boardId ? read(boardId) : []);
  const [fields, lists, members, events, threads] = await Promise.all([
    ofBoard((board) => all((cursor) => listBoardFields(db, call.userId, board, { limit: PAGE_MAX, cursor }))),
    ofBoard((board) => all((cursor) => listBoardLists(db, call.userId, board, { limit: PAGE_MAX, cursor }))),
    ofBoard((board) =>
      all((cursor) => listBoardMembers(db, call.userId, board, { limit: PAGE_MAX, cursor })),
    ),
    taskEvents(db, call.userId, task.id),
    Promise.all(
      task.thread_ids.map(async (threadId) => {
        const thread = await findThread(db, call.userId, threadId).catch(() => null);
        return { thread_id: threadId, subject: thread?.subject ?? null, in_mailbox: thread !== null };
      }),
    ),
  ]);
  return {
    task,
    archived_at: archivedAt,
    custom_fields: fields,
    lists: lists.map(presentList),
    members,
    shades: [...SHADES],
    events,
    threads,
  };
});

// Mailbox

on('GET', 'mail', async (call): Promise<ConsoleMailbox> => {
  const { db, now } = ctxOf(call);
  const state = await mailboxState(db, call.userId);
  if (!state.connected) {
    return {
      address: state.email_address ?? null,
      connected: false,
      reason: state.reason ?? null,
      labels: [],
      threads: [],
      next_cursor: null,
    };
  }
  const [labels, page] = await Promise.all([
    listLabels(db, call.userId, now()),
    searchThreads(db, call.userId, call.query['q'] ?? '', { limit: 50, cursor: call.query['cursor'] }, now()),
  ]);
  // The list shows each thread's labels: those of its messages.
  const threads = await Promise.all(
    page.items.map(async (thread) => {
      // The provider answers messages (and so their labels) only with bodies; 50 threads a page.
      const full = await getThread(db, call.userId, thread.thread_id, { messages: true }, now());
      const threadLabels = [...new Set((full.messages ?? []).flatMap((message) => message.labels))];
      return { ...thread, labels: threadLabels };
    }),
  );
  return {
    address: state.email_address ?? null,
    connected: true,
    reason: null,
    labels: labels.labels,
    threads,
    next_cursor: page.pagination.next_cursor,
  };
});

on('GET', 'mail/:id', async (call): Promise<ConsoleThreadView> => {
  const { db, now } = ctxOf(call);
  const thread = await getThread(db, call.userId, param(call, 0), { messages: true }, now());
  const [linked, labels] = await Promise.all([
    linkedTasksOf(db, call.userId, thread.thread_id),
    listLabels(db, call.userId, now()),
  ]);
  // Text only: the HTML body never leaves for the console (docs/console.md).
  const messages = (thread.messages ?? []).map(({ body_html, ...message }) => ({
    ...message,
    has_html: body_html != null && body_html !== '',
  }));
  return { thread: { ...thread, messages }, linked_tasks: linked, labels: labels.labels };
});

on('POST', 'mail/:id/inbound', async (call) => {
  const input = parseRequest(ConsoleInboundRequest, call.body, 'body');
  const { db, now } = ctxOf(call);
  const user = ctxOf(call).consoleUser!;
  const state = await mailboxState(db, call.userId);
  if (!state.connected || !state.email_address) {
    throw new ServiceError('mailbox_not_connected', 'the console user has no connected mailbox');
  }
  const threadId = param(call, 0);
  const thread = await getThread(db, call.userId, threadId, { messages: true }, now());
  const mine = state.email_address.toLowerCase();
  // The reply comes from the thread's other party: the newest sender who is not the user.
  const other =
    [...(thread.messages ?? [])].reverse().find((message) => message.from.email.toLowerCase() !== mine)
      ?.from ?? thread.participants.find((address) => address.email.toLowerCase() !== mine);
  const from: EmailAddress = other ?? { email: 'someone@example.com', name: null };
  return write(
    call,
    (tx) =>
      receiveInboundMessage(
        tx,
        {
          mailbox: state.email_address!,
          thread_id: threadId,
          message: {
            from,
            to: [{ email: state.email_address!, name: user.displayName }],
            body_text: input.body_text,
            labels: input.unread ? ['INBOX', 'UNREAD'] : ['INBOX'],
          },
        },
        now(),
      ),
    'everything',
  );
});

// Read state and labels, as POST /v2/email-threads/{id}/read-state and …/labels change them.

on('POST', 'mail/:id/read-state', (call) => {
  const { read } = parseRequest(ReadStateRequest, call.body, 'body');
  return changeMailbox(ctxOf(call), call.userId, (tx) =>
    setReadState(tx, call.userId, param(call, 0), read, ctxOf(call).now()),
  );
});

on('POST', 'mail/:id/labels', (call) => {
  const change = parseRequest(LabelsRequest, call.body, 'body');
  return changeMailbox(ctxOf(call), call.userId, (tx) =>
    changeLabels(tx, call.userId, param(call, 0), change, ctxOf(call).now()),
  );
});

// Deliveries

on('GET', 'deliveries', async (call): Promise<ConsoleDeliveries> => {
  const query = parseRequest(ConsoleDeliveriesQuery, call.query, 'query');
  const { db } = ctxOf(call);
  const subscriptions = await subscriptionsOf(db, call.userId, ctxOf(call).now());
  const page = await deliveryPage(db, subscriptions, query);
  const kinds = new Set(subscriptions.flatMap((subscription) => subscription.events));
  if (subscriptions.some((subscription) => subscription.kind === 'v2')) kinds.add('webhook.test');
  return {
    subscriptions,
    ...page,
    filter: {
      status: query.status ?? null,
      event_type: query.event_type ?? null,
      subscription_id: query.subscription_id ?? null,
    },
    event_types: EVENT_TYPES.filter((type) => type !== 'webhook.test'),
    delivery_types: [...EVENT_TYPES, ...V1_ACTIONS].filter((type) => kinds.has(type)),
    receiver: receiverView(call.app, receiverUrl(call.app)),
  };
});

on('GET', 'deliveries/:id', (call) =>
  deliveryDetail(ctxOf(call).db, call.userId, param(call, 0), ctxOf(call).options.webhookTimeScale),
);

// A v2 subscription made here is the same as one made through POST /v2/webhooks/subscriptions: the same
// target rule (checked before the transaction: no write waits on DNS) and the same signing secret,
// answered once.
on('POST', 'webhooks', async (call) => {
  const input = parseRequest(CreateWebhookRequest, call.body, 'body');
  const { targets, now } = ctxOf(call);
  await checkWebhookTarget(input.target_url, targets, 'target_url');
  return write(call, (tx) =>
    // The console is the user, with no key: what it subscribes stops only when paused or deleted.
    createSubscription(tx, { userId: call.userId, keyId: null }, input, targets, now()),
  );
});

on('POST', 'webhooks/:id/test', (call) =>
  write(call, (tx) => sendTestEvent(tx, call.userId, param(call, 0), ctxOf(call).now())),
);

// Pause and resume (PATCH status), as PATCH /v2/webhooks/subscriptions/{id} does, target rule and all.
on('PATCH', 'webhooks/:id', async (call) => {
  const patch = parseRequest(UpdateWebhookRequest, call.body, 'body');
  const { targets } = ctxOf(call);
  if (patch.target_url !== undefined) await checkWebhookTarget(patch.target_url, targets, 'target_url');
  // Resumed here, it belongs to no key (as one made here): it stops only when paused or deleted.
  return write(call, (tx) =>
    updateSubscription(tx, { userId: call.userId, keyId: null }, param(call, 0), patch, targets),
  );
});

on('POST', 'webhooks/:id/rotate-secret', (call) =>
  write(call, (tx) => rotateSecret(tx, call.userId, param(call, 0), ctxOf(call).now())),
);

on('DELETE', 'webhooks/:id', (call) =>
  write(call, (tx) => deleteSubscription(tx, call.userId, param(call, 0))),
);

// A v1 hook is deleted as the v1 unsubscribe deletes it.
on('DELETE', 'hooks/:id', async (call) => {
  await write(call, (tx) => unsubscribeV1(tx, call.userId, param(call, 0)));
  return { id: param(call, 0), deleted: true };
});

on('POST', 'webhooks/:id/retry-failed', (call) =>
  write(call, (tx) => retryFailed(tx, call.userId, 'v2', param(call, 0), ctxOf(call).now())),
);

on('POST', 'hooks/:id/retry-failed', (call) =>
  write(call, (tx) => retryFailed(tx, call.userId, 'v1', param(call, 0), ctxOf(call).now())),
);

on('POST', 'deliveries/:id/replay', async (call) => ({
  id: await write(call, (tx) => replayAnyDelivery(tx, call.userId, param(call, 0), ctxOf(call).now())),
}));

// Keys

on(
  'GET',
  'keys',
  async (call): Promise<ConsoleKeys> => ({
    keys: await all((cursor) => listApiKeys(ctxOf(call).db, call.userId, { limit: PAGE_MAX, cursor })),
    scopes: [...SCOPES],
    opt_in_scopes: [...OPT_IN_SCOPES],
    default_scopes: [...DEFAULT_SCOPES],
  }),
);

/** The console is the user (no key of its own), so it may grant any scope, opt-in ones included. */
const CONSOLE_GRANTS: ReadonlySet<Scope> = new Set(SCOPES);

on('POST', 'keys', (call) => {
  const input = parseRequest(ConsoleCreateKeyRequest, call.body, 'body');
  return createApiKey(
    ctxOf(call),
    { userId: call.userId, scopes: CONSOLE_GRANTS },
    { name: input.name, type: input.type, ...(input.scopes ? { scopes: input.scopes } : {}) },
    ctxOf(call).now(),
  );
});

on('DELETE', 'keys/:id', (call) => revokeApiKey(ctxOf(call), call.userId, param(call, 0)));
