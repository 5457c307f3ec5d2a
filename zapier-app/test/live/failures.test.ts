/**
 * Steps whose answers go wrong after the service acted: a loopback proxy in front of a live reference
 * server passes each request through, then answers 502 with a gateway's HTML page, drops the connection,
 * never answers, or is down. After each run the service's own state is read: the step acted exactly once
 * (its retries resent the same Idempotency-Key), and the message says what happened in plain words: the
 * service may have acted, so check before replaying, or use Only Once Per.
 */
import type { ThreadworkClient } from '@threadwork/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveServer } from '../../../test/e2e/test/helpers/live-server.ts';
import { setRetryTimes } from '../../src/lib/run.ts';
import { operationOf } from '../creates/support.ts';
import { appTester, type Operation, rejection, zapierMessage } from '../helpers/auth.ts';
import { IDS, startConnectedServer } from '../helpers/live.ts';
import { type FaultyProxy, startFaultyProxy, writes } from '../helpers/proxy.ts';
import { TEST_RETRY_DELAYS_MS } from '../helpers/setup.ts';

let server: LiveServer;
let service: ThreadworkClient;
let proxy: FaultyProxy;
let viaProxy: Record<string, string>;

beforeAll(async () => {
  let authData: Record<string, string>;
  ({ server, authData, service } = await startConnectedServer({ testControl: false }));
  proxy = await startFaultyProxy(server.origin);
  viaProxy = { ...authData, origin: proxy.origin };
}, 60_000);

afterEach(async () => {
  proxy.clear();
  proxy.seen.length = 0;
  await proxy.up();
});

afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

const run = (key: string, inputData: Record<string, unknown>, kind: 'creates' | 'searches' = 'creates') =>
  appTester(operationOf(kind, key).perform as Operation, { authData: viaProxy, inputData });

const failing = async (key: string, inputData: Record<string, unknown>, kind?: 'creates' | 'searches') =>
  zapierMessage(await rejection(run(key, inputData, kind)));

/** The tasks of To do with this title, as the service holds them. */
async function titled(title: string) {
  const found = [];
  for await (const task of service.tasks.list({ list_id: IDS.todo }))
    if (task.title === title) found.push(task);
  return found;
}

const MAY_HAVE_ACTED =
  'The service may have carried out this step before the failure. Check in the service before replaying this run (a replay runs the step again in full), or map something unique to the trigger item (e.g. its Event ID) into Only Once Per, so that a replay cannot act twice.';

describe('a write whose answer is lost acts once, and says the service may have acted', () => {
  it('502 with an HTML page on every attempt: one task, the 502 in plain words, no HTML', async () => {
    const title = 'Proxy: 502 every time';
    proxy.fail({ fault: 'bad-gateway', when: writes });
    const message = await failing('create_task', { list_id: IDS.todo, title });
    expect(message).toBe(
      `The service failed (HTTP 502): a gateway in front of the service got no proper answer from it. ${MAY_HAVE_ACTED}`,
    );
    expect(await titled(title)).toHaveLength(1);
    // Every attempt resent the same key, at the run's pace (1 s, 3 s, 8 s in production; shortened here).
    const posts = proxy.seen.filter((seen) => seen.method === 'POST');
    expect(posts).toHaveLength(TEST_RETRY_DELAYS_MS.length + 1);
    expect(new Set(posts.map((seen) => seen.idempotencyKey)).size).toBe(1);
    for (const [index, wait] of TEST_RETRY_DELAYS_MS.entries()) {
      expect(posts[index + 1]!.at - posts[index]!.at).toBeGreaterThanOrEqual(wait - 2);
    }
  });

  it('502 once: the retry gets the service’s first answer, and the step succeeds with one task', async () => {
    const title = 'Proxy: 502 once';
    proxy.fail({ fault: 'bad-gateway', when: writes, times: 1 });
    const created = (await run('create_task', { list_id: IDS.todo, title })) as { id: string };
    const found = await titled(title);
    expect(found.map((task) => task.id)).toEqual([created.id]);
  });

  it('the connection dropped on every attempt: one task, and the message says so once', async () => {
    const title = 'Proxy: dropped';
    proxy.fail({ fault: 'drop', when: writes });
    const message = await failing('create_task', { list_id: IDS.todo, title });
    expect(message).toBe(
      `The connection to the service at ${proxy.origin} was lost before it answered. ${MAY_HAVE_ACTED}`,
    );
    expect(await titled(title)).toHaveLength(1);
  });

  it('no answer at all (a hang): each attempt is cut, no retry outlives the run’s time, one task', async () => {
    setRetryTimes({ delaysMs: [20, 60, 160], attemptTimeoutMs: 300, budgetMs: 1_200, minAttemptMs: 100 });
    const title = 'Proxy: hang';
    proxy.fail({ fault: 'hang', when: writes });
    const started = Date.now();
    const message = await failing('create_task', { list_id: IDS.todo, title });
    const took = Date.now() - started;
    expect(message).toBe(`The service at ${proxy.origin} did not answer in time. ${MAY_HAVE_ACTED}`);
    expect(took).toBeLessThan(1_200 + 500);
    const posts = proxy.seen.filter((seen) => seen.method === 'POST');
    // 300 + 20 + 300 + 60 + 300 + 160 = 1 140 ms: the fourth attempt would have had 60 ms, under the minimum.
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(posts.length).toBeLessThanOrEqual(3);
    expect(await titled(title)).toHaveLength(1);
  });

  it('with Only Once Per, the message says a replay is safe, and the replayed run acts no more', async () => {
    const title = 'Proxy: replayed with Only Once Per';
    const inputs = { list_id: IDS.todo, title, dedupe_key: 'evt_proxy_1' };
    proxy.fail({ fault: 'bad-gateway', when: writes });
    expect(await failing('create_task', inputs)).toMatch(
      /The service may have carried out this step before the failure\. Replaying this run is safe: with Only Once Per set/,
    );
    proxy.clear();
    await run('create_task', inputs); // Zapier's Replay of the run
    expect(await titled(title)).toHaveLength(1);
  });

  it('without it, a replay is a new run and acts again: which is why the message says to check first', async () => {
    const title = 'Proxy: replayed without Only Once Per';
    proxy.fail({ fault: 'bad-gateway', when: writes });
    await failing('create_task', { list_id: IDS.todo, title });
    proxy.clear();
    await run('create_task', { list_id: IDS.todo, title });
    expect(await titled(title)).toHaveLength(2);
  });

  it('the second write of a run fails: the message names what the first one did', async () => {
    const title = 'Proxy: custom fields lost';
    proxy.fail({ fault: 'bad-gateway', when: (request) => request.method === 'PATCH' });
    const message = await failing('create_task', {
      board_id: IDS.board,
      list_id: IDS.todo,
      title,
      [`custom_field__${IDS.estimate}`]: '3',
    });
    const [task] = await titled(title);
    expect(message).toMatch(
      new RegExp(
        `^The service failed \\(HTTP 502\\): .*Before this failure the step had created the task "${title}" \\(${task!.id}\\) without its custom field values, and the service may have carried out the rest\\. Check in the service`,
      ),
    );
    expect((await service.tasks.get(task!.id)).custom_fields).toEqual([{ field_id: IDS.estimate, value: 3 }]);
  });
});

describe('what was refused or never sent is not said to have acted', () => {
  it('the service down (connection refused): could not reach it, said once; nothing created', async () => {
    const title = 'Proxy: service down';
    await proxy.down();
    const message = await failing('create_task', { list_id: IDS.todo, title });
    expect(message).toBe(
      `Could not reach the service at ${proxy.origin}: the connection was refused. Check the connection's Service URL, or run the step again once the service is back.`,
    );
    await proxy.up();
    expect(await titled(title)).toHaveLength(0);
  });

  it('a read that keeps failing says to try again, with no word of acting', async () => {
    proxy.fail({ fault: 'bad-gateway' });
    const message = await failing('find_task', { list_id: IDS.todo, title: 'anything' }, 'searches');
    expect(message).toBe(
      'The service failed (HTTP 502): a gateway in front of the service got no proper answer from it. Try the step again in a few minutes.',
    );
  });

  it('a refusal by the service (4xx) says what to fix, and no word of acting', async () => {
    const message = await failing('create_task', { list_id: 'lst_missing', title: 'Proxy: refused' });
    expect(message).toBe(
      'List `lst_missing` was not found, or this account cannot see it: pick it again from List.',
    );
  });

  it('a slow answer within the attempt’s time is simply waited for', async () => {
    const title = 'Proxy: slow';
    proxy.fail({ fault: { delayMs: 300 }, when: writes });
    await run('create_task', { list_id: IDS.todo, title });
    expect(await titled(title)).toHaveLength(1);
    expect(proxy.seen.filter((seen) => seen.method === 'POST')).toHaveLength(1);
  });
});
