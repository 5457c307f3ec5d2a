/**
 * The bundle itself (`dist/index.js`, what Zapier runs) makes requests as the sources do: built fresh, then
 * driven through appTester with nock.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import zapier from 'zapier-platform-core';
import { authData, FRESH_TOKEN, jwt, type Operation, ORIGIN } from './helpers/auth.ts';

const APP_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
type Built = { triggers: Record<string, { operation: Record<string, Operation> }> };
let app: Built;
let run: (operation: Operation, bundle: Record<string, unknown>) => Promise<unknown>;

beforeAll(async () => {
  const build = spawnSync(process.execPath, [join(APP_ROOT, 'scripts', 'build.ts')], { encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  const url = `${pathToFileURL(join(APP_ROOT, 'dist', 'index.js')).href}?${Date.now()}`;
  app = ((await import(url)) as { default: Built }).default;
  run = zapier.createAppTester(app as never) as unknown as typeof run;
}, 60_000);

afterEach(() => {
  nock.cleanAll();
});

describe('the bundle', () => {
  it('reads a dropdown through the bundled client (ky over z.request)', async () => {
    nock(ORIGIN, { reqheaders: { 'x-access-token': FRESH_TOKEN } })
      .get('/v2/teams')
      .query({ limit: '100' })
      .reply(200, {
        data: [{ id: 'team_acme', name: 'Acme', subscription: null }],
        meta: { request_id: 'r', pagination: { next_cursor: null, has_more: false, limit: 100 } },
      });
    const teams = await run(app.triggers['teams']!.operation['perform']!, {
      authData: authData(),
      meta: { page: 0 },
    });
    expect(teams).toEqual([{ id: 'team_acme', name: 'Acme' }]);
  });

  it('subscribes a hook with a fresh token and a JSON body', async () => {
    const minted = jwt(1200, 'minted');
    nock(ORIGIN).post('/auth/api_token').query(true).reply(200, { 'x-access-token': minted });
    nock(ORIGIN, { reqheaders: { 'x-access-token': minted } })
      .post('/api/v1/items/subscribe', (body) => body.action === 'createOnList' && body.entityId === 'lst_1')
      .reply(200, {
        id: 'sub_1',
        action: 'createOnList',
        entityId: 'lst_1',
        webhookURL: 'https://h.test',
        apiService: 'zapier',
      });
    const subscription = await run(app.triggers['new_task_in_list']!.operation['performSubscribe']!, {
      authData: authData(),
      inputData: { list_id: 'lst_1' },
      targetUrl: 'https://h.test',
    });
    expect(subscription).toMatchObject({ id: 'sub_1' });
    expect(nock.isDone()).toBe(true);
  });

  it('loads no zod (no schema is built) until a step first needs the shared client or schemas', () => {
    // A fresh process, as Zapier's: zod marks its global config when it loads. A delivery that is not a task
    // makes the hook's perform parse it with the shared schema (and answer invalid_delivery), no request.
    const script = `
      const zapier = (await import('zapier-platform-core')).default;
      const app = (await import(${JSON.stringify(pathToFileURL(join(APP_ROOT, 'dist', 'index.js')).href)})).default;
      const atImport = '__zod_globalConfig' in globalThis;
      const error = await zapier.createAppTester(app)(app.triggers.new_task_in_list.operation.perform, {
        cleanedRequest: { title: 'not a task' },
      }).catch((caught) => caught);
      process.stdout.write(JSON.stringify({ atImport, afterStep: '__zod_globalConfig' in globalThis, error: error.message }));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: APP_ROOT,
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({
      atImport: false,
      afterStep: true,
      error: expect.stringContaining('not a task from the service'),
    });
  });
});
