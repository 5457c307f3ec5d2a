/**
 * HTTP requests per run, counted at Node's HTTP client (every `z.request` ends there): each action and
 * search makes exactly one request when the session is fresh (the cases that need more say why, and are
 * reported apart), and a hook's `perform` makes at most two: a v1 hook reads the task's v2 view (the
 * threads and custom fields the v1 item lacks), and a task with custom field values needs one read of its
 * board's fields for their names; a reply makes none. The service is mocked with nock from the same table
 * of cases the tests use, so every run succeeds exactly as it would against the service.
 *
 * Run: node zapier-app/bench/requests.bench.ts
 */
import { subscribe } from 'node:diagnostics_channel';
import { signPayload } from '@threadwork/shared/webhooks';
import nock from 'nock';
import { report } from '../../scripts/bench-kit.ts';

// Zapier's core logs its memory on every run unless it knows it is under test.
process.env['NODE_ENV'] = 'test';
const { default: App } = await import('../src/index.ts');
const { sampleItem } = await import('../src/triggers/rest-hook.ts');
const resources = await import('../src/creates/resources.ts');
const { CREATE_CASES, caseName } = await import('../test/creates/cases.ts');
const { appTester, authData, mockService, perform } = await import('../test/creates/support.ts');
const { SEARCH_CASES } = await import('../test/searches/cases.ts');
const { TASK_CASES } = await import('../test/creates/task-cases.ts');

let requests = 0;
subscribe('http.client.request.start', () => {
  requests++;
});

async function counted(run: () => Promise<unknown>): Promise<number> {
  const before = requests;
  await run();
  return requests - before;
}

nock.disableNetConnect();

const single: Array<{ name: string; requests: number }> = [];
const multiple: Array<{ name: string; requests: number; why: string }> = [];
for (const entry of [...CREATE_CASES, ...TASK_CASES, ...SEARCH_CASES]) {
  const service = mockService(entry.requests);
  const count = await counted(() => perform(entry.kind, entry.key, entry.inputData, entry.meta));
  service.done();
  nock.cleanAll();
  if (entry.moreRequests === undefined) single.push({ name: caseName(entry), requests: count });
  else multiple.push({ name: caseName(entry), requests: count, why: entry.moreRequests });
}
const worst = single.reduce((max, entry) => (entry.requests > max.requests ? entry : max), single[0]!);
report({
  name: 'HTTP requests per action or search run, fresh session (most of any case)',
  value: worst.requests,
  unit: 'requests',
  budget: { limit: 1, better: 'lower' },
  context: {
    cases: single.length,
    'fewest requests': Math.min(...single.map((entry) => entry.requests)),
    'cases at the most': single.filter((entry) => entry.requests === worst.requests).length,
  },
});
for (const entry of multiple) {
  report({ name: `${entry.name} (by design: ${entry.why})`, value: entry.requests, unit: 'requests' });
}

// Hook performs: the v1 deliveries carry the item (its task's v2 view is read), the v2 ones are signed.
const triggers = App.triggers as unknown as Record<string, { operation: { type: string; perform: unknown } }>;
const SECRET = 'whsec_bench';
const replyBody = JSON.stringify({
  id: 'evt_bench',
  type: 'thread.reply_received',
  created_at: '2026-01-06T08:30:01.000Z',
  data: {
    thread: {
      provider: 'gmail',
      thread_id: '18c2f0a1b2c3d4e5',
      message_ids: ['18c2f0a1b2c3d4e5'],
      subject: 'Quote',
      participants: [],
      latest_message_at: null,
      snippet: null,
      direction: 'inbound',
      unread: true,
    },
    message: {
      id: '18c2f0a1b2c3d4e5',
      subject: 'Quote',
      from: { email: 'bob@stone.test', name: null },
      to: [],
      cc: [],
      date: null,
      snippet: null,
      unread: true,
      labels: [],
    },
    linked_tasks: [],
  },
});
/** The signed v2 deliveries, by trigger key; every other hook trigger is a v1 one. */
const taskEvent = (type: string) =>
  JSON.stringify({
    id: 'evt_bench_task',
    type,
    created_at: '2026-01-06T08:30:01.000Z',
    data: {
      task: {
        ...resources.task.sample,
        board_id: 'brd_roadmap',
        custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'] }],
      },
    },
  });
const v2Bodies: Record<string, string> = {
  new_thread_reply: replyBody,
  task_updated: taskEvent('task.updated'),
  task_uncompleted: taskEvent('task.uncompleted'),
};
let hookRequests = 0;
let hooks = 0;
for (const [key, trigger] of Object.entries(triggers)) {
  if (trigger.operation.type !== 'hook') continue;
  hooks++;
  const item = sampleItem();
  const v2Body = v2Bodies[key];
  const bundle =
    v2Body !== undefined
      ? {
          authData,
          inputData: { board_id: 'brd_roadmap' },
          subscribeData: { id: 'wh_bench', secret: SECRET },
          cleanedRequest: JSON.parse(v2Body),
          rawRequest: {
            content: v2Body,
            headers: { 'Http-X-Service-Signature': signPayload(v2Body, SECRET) },
          },
        }
      : {
          authData,
          cleanedRequest: item,
          rawRequest: { content: JSON.stringify(item), headers: { 'Http-X-Service-Event-Id': 'evt_bench' } },
        };
  const run = appTester as unknown as (operation: unknown, bundle: unknown) => Promise<unknown[]>;
  // The service's answers: the task's v2 view (with a custom field value) and its board's fields.
  const task = {
    ...resources.task.sample,
    id: item.task_id,
    board_id: 'brd_roadmap',
    custom_fields: [{ field_id: 'cf_priority', value: ['opt_high'] }],
  };
  const { ORIGIN } = await import('../test/creates/support.ts');
  nock(ORIGIN)
    .get(`/v2/tasks/${item.task_id}`)
    .optionally()
    .reply(200, { data: task, meta: { request_id: 'r' } });
  nock(ORIGIN)
    .get('/v2/boards/brd_roadmap/custom-fields')
    .query(true)
    .optionally()
    .reply(200, {
      data: [
        { id: 'cf_priority', name: 'Priority', type: 'tag', ai: false, display_on_card: true, options: [] },
      ],
      meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 200 } },
    });
  hookRequests = Math.max(hookRequests, await counted(() => run(trigger.operation.perform, bundle)));
  nock.cleanAll();
}
report({
  name: 'HTTP requests per hook perform (most of any trigger)',
  value: hookRequests,
  unit: 'requests',
  budget: { limit: 2, better: 'lower' },
  context: { 'hook triggers': hooks },
});
