// The console's server side (docs/console.md): only with --console, only for loopback clients addressed
// by a loopback name, writes only from its own pages; `/` still answers JSON to a client asking for it;
// the acting user; the live feed (server-sent events after commit) and a clean shutdown with streams open.
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../src/seed/demo.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { startReceiver } from './helpers/console-browser.ts';
import { freshDatabase } from './helpers/database.ts';
import { fixtureSeed } from './helpers/fixtures.ts';
import {
  consoleApi,
  consoleToken,
  offlineResolver,
  readBody,
  runCli,
  spawnServer,
} from './helpers/server.ts';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function start(options: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    ...(await freshDatabase(undefined)),
    demo: true,
    console: true,
    resolveHost: offlineResolver,
    ...options,
  });
  running.push(server);
  return server;
}

const v2 = (server: RunningServer, path: string, init: RequestInit = {}) =>
  fetch(`${server.origin}/v2${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${DEMO_CREDENTIALS.v2Secret}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

/** A raw request, so that Host and Origin can be set as a foreign page would send them. */
function rawRequest(
  origin: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

describe('the console on the server', () => {
  it('is absent without --console: / answers the roots to a browser too, console paths are 404', async () => {
    const server = await start({ console: false });
    const root = await fetch(`${server.origin}/`, { headers: { accept: 'text/html,*/*;q=0.8' } });
    expect(root.headers.get('content-type')).toContain('application/json');
    expect((await readBody(root)).roots.v2).toBe('/v2');
    for (const path of [
      '/boards/brd_product',
      '/tasks/tsk_demo_p01',
      '/mail',
      '/keys',
      '/_console/api/overview',
    ]) {
      const answer = await fetch(`${server.origin}${path}`);
      expect(answer.status, path).toBe(404);
      expect((await readBody(answer)).error.code).toBe('not_found');
    }
    expect(server.console).toBeUndefined();
  });

  it('serves its page to a browser at / and at each page path, and the roots to a JSON client', async () => {
    const server = await start();
    const page = await fetch(`${server.origin}/`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    const script = /src="(\/_console\/assets\/console\.[0-9a-f]{16}\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.origin}${script}`);
    expect(asset.status).toBe(200);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('text/javascript');

    for (const accept of [undefined, 'application/json', '*/*']) {
      const roots = await fetch(`${server.origin}/`, { headers: accept ? { accept } : {} });
      expect(roots.headers.get('content-type')).toContain('application/json');
      expect(await readBody(roots)).toEqual({
        name: 'threadwork reference server',
        versions: { v2: '2.0.0', v1: '1.5' },
        roots: { v2: '/v2', v1: '/api/v1', auth: '/auth/api_token' },
      });
    }
    for (const path of [
      '/boards/brd_product',
      '/tasks/tsk_demo_p01',
      '/mail',
      '/mail/18c2f0a1b2c3d4e5',
      '/deliveries',
      '/keys',
    ]) {
      const answer = await fetch(`${server.origin}${path}`);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('content-type'), path).toContain('text/html');
      expect(await answer.text(), path).toContain('<html lang="en">');
    }
  });

  it('acts as the first user of the demo by default, or as --console-user', async () => {
    const demo = await start();
    expect(demo.console?.email).toBe(DEMO_CREDENTIALS.email);
    const overview = await readBody(await consoleApi(demo, 'overview'));
    expect(overview.data.user.email).toBe(DEMO_CREDENTIALS.email);

    const grace = await start({ consoleUser: 'GRACE@northwind.test' });
    expect(grace.console?.userId).toBe('usr_grace');

    const seeded = await start({ demo: false, seed: fixtureSeed });
    expect(seeded.console?.userId).toBe(fixtureSeed.users?.[0]?.id);

    await expect(start({ consoleUser: 'nobody@northwind.test' })).rejects.toThrow(
      '--console-user nobody@northwind.test: no user has that email',
    );
  });

  it('shows the user’s own personal boards on the overview, by name, and nobody else’s', async () => {
    const server = await start({
      demo: false,
      seed: {
        ...fixtureSeed,
        boards: [
          ...fixtureSeed.boards,
          { id: 'brd_ada_zed', team_id: null, owner_id: 'usr_ada', name: 'Zed', lists: [] },
          { id: 'brd_ada_own', team_id: null, owner_id: 'usr_ada', name: 'Mine', lists: [] },
          { id: 'brd_bob_own', team_id: null, owner_id: 'usr_bob', name: 'Bob’s', lists: [] },
        ],
      },
    });
    expect(server.console?.userId).toBe('usr_ada');
    const overview = await readBody(await consoleApi(server, 'overview'));
    expect(
      overview.data.personal_boards.map((board: { id: string; team_id: string | null }) => [
        board.id,
        board.team_id,
      ]),
    ).toEqual([
      ['brd_ada_own', null],
      ['brd_ada_zed', null],
    ]);
  });

  it('answers 403 in the error envelope to a client that is not on loopback', async () => {
    const server = await start();
    for (const url of ['/', '/boards/brd_product', '/_console/api/overview', '/_console/events']) {
      const answer = await server.app.inject({
        url,
        remoteAddress: '192.0.2.10',
        headers: { accept: 'text/html', host: new URL(server.origin).host },
      });
      expect(answer.statusCode, url).toBe(403);
      const body = answer.json();
      expect(body.error.code).toBe('forbidden');
      expect(body.error.request_id).toMatch(/^req_/);
    }
    // The API stays open to every client, as without --console.
    const api = await server.app.inject({ url: '/', remoteAddress: '192.0.2.10' });
    expect(api.statusCode).toBe(200);
  });

  it('refuses a foreign Host (a DNS-rebound page) and a write from another origin', async () => {
    const server = await start();
    const token = await consoleToken(server);
    const foreignHost = await rawRequest(server.origin, '/_console/api/overview', {
      headers: { host: 'evil.test', 'x-console-token': token },
    });
    expect(foreignHost.status).toBe(403);
    expect(JSON.parse(foreignHost.body).error.code).toBe('forbidden');

    const body = JSON.stringify({ list_id: 'lst_backlog', title: 'From another site' });
    const crossSite = await rawRequest(server.origin, '/_console/api/tasks', {
      method: 'POST',
      headers: {
        host: new URL(server.origin).host,
        origin: 'http://evil.test',
        'content-type': 'application/json',
        'x-console-token': token,
      },
      body,
    });
    expect(crossSite.status).toBe(403);
    const tasks = await readBody(await v2(server, '/tasks?list_id=lst_backlog&limit=200'));
    expect(tasks.data.map((task: { title: string }) => task.title)).not.toContain('From another site');

    const sameSite = await rawRequest(server.origin, '/_console/api/tasks', {
      method: 'POST',
      headers: {
        host: new URL(server.origin).host,
        origin: server.origin,
        'content-type': 'application/json',
        'x-console-token': token,
      },
      body,
    });
    expect(sameSite.status).toBe(200);
  });

  it('acts only for a request carrying its page’s token, which is new for every server', async () => {
    const server = await start();
    const token = await consoleToken(server);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await start();
    expect(await consoleToken(other)).not.toBe(token);
    // Every page path carries the same token.
    const taskPage = await fetch(`${server.origin}/tasks/tsk_demo_p01`, { headers: { accept: 'text/html' } });
    expect(await taskPage.text()).toContain(`<meta name="console-token" content="${token}">`);

    const write = (headers: Record<string, string>, title: string) =>
      fetch(`${server.origin}/_console/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ list_id: 'lst_backlog', title }),
      });
    const wrongSameLength = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const refusals = [
      await write({}, 'No token'),
      await write({ 'x-console-token': '' }, 'Empty token'),
      await write({ 'x-console-token': wrongSameLength }, 'Wrong token'),
      await write({ 'x-console-token': `${token}x` }, 'Longer token'),
      await write({ 'x-console-token': await consoleToken(other) }, 'Another server’s token'),
      await write({ origin: server.origin }, 'Own origin, no token'),
    ];
    for (const answer of refusals) {
      expect(answer.status).toBe(403);
      const body = await readBody(answer);
      expect(body.error).toMatchObject({ code: 'forbidden', request_id: expect.stringMatching(/^req_/) });
      expect(body.error.message).toBe(
        'the console acts only for its own pages: the request did not carry the page’s x-console-token (reload the page if the server was restarted)',
      );
      expect(body.error.message).not.toContain(token);
    }
    // Reads and replays are the console's too.
    expect((await fetch(`${server.origin}/_console/api/overview`)).status).toBe(403);
    expect(
      (await fetch(`${server.origin}/_console/api/deliveries/dlv_x/replay`, { method: 'POST' })).status,
    ).toBe(403);
    const tasks = await readBody(await v2(server, '/tasks?list_id=lst_backlog&limit=200'));
    const titles = tasks.data.map((task: { title: string }) => task.title);
    for (const title of ['No token', 'Empty token', 'Wrong token', 'Longer token', 'Own origin, no token']) {
      expect(titles).not.toContain(title);
    }

    const accepted = await write({ 'x-console-token': token }, 'With the token');
    expect(accepted.status).toBe(200);
    // The page itself, its script and the live feed need none (docs/console.md says why).
    expect((await fetch(`${server.origin}/`, { headers: { accept: 'text/html' } })).status).toBe(200);
    const controller = new AbortController();
    const stream = await fetch(`${server.origin}/_console/events`, { signal: controller.signal });
    expect(stream.status).toBe(200);
    controller.abort();
  });

  it('validates what it is sent, with the API’s error envelope, and loses nothing', async () => {
    const server = await start();
    const bad = await consoleApi(server, 'tasks', {
      method: 'POST',
      body: JSON.stringify({ list_id: 'lst_backlog', title: '' }),
    });
    expect(bad.status).toBe(400);
    expect((await readBody(bad)).error.code).toBe('validation_error');
    const missing = await consoleApi(server, 'tasks/tsk_nope');
    expect(missing.status).toBe(404);
    const unknown = await consoleApi(server, 'nothing-here');
    expect(unknown.status).toBe(404);
  });

  it('has a test receiver that verifies signatures: a real delivery is taken, a forged or unknown one refused', async () => {
    const server = await start({ allowInsecureWebhooks: true, webhookTimeScale: 0.001 });
    const call = (path: string, init: RequestInit = {}) => consoleApi(server, path, init).then(readBody);
    const deliveries = () => call('deliveries');
    const url = (await deliveries()).data.receiver.url as string;
    expect(url).toBe(`${server.origin}/_console/receiver`);
    const subscribed = await call('webhooks', {
      method: 'POST',
      body: JSON.stringify({ target_url: url, events: ['task.created'] }),
    });
    expect(subscribed.data.target_url).toBe(url);
    const created = await v2(server, '/tasks', {
      method: 'POST',
      body: JSON.stringify({ list_id: 'lst_backlog', title: 'Received here' }),
    });
    expect(created.ok).toBe(true);
    type Received = { delivery_id: string; event_type: string; signature: string; status_code: number };
    let taken: Received | undefined;
    for (let tries = 0; tries < 100 && !taken; tries++) {
      taken = ((await deliveries()).data.receiver.received as Received[]).find(
        (entry) => entry.event_type === 'task.created',
      );
      if (!taken) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(taken).toMatchObject({ signature: 'valid', status_code: 204 });

    // A delivery whose signature was not made with the subscription's secret: 400, and shown as such.
    const forged = await rawRequest(server.origin, '/_console/receiver', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-delivery-id': taken!.delivery_id,
        'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: '{"forged":true}',
    });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body).error.code).toBe('invalid_request');
    const unknown = await rawRequest(server.origin, '/_console/receiver', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-delivery-id': 'dlv_nope' },
      body: '{}',
    });
    expect(unknown.status).toBe(404);
    const [newest, second] = (await deliveries()).data.receiver.received as Received[];
    expect(newest).toMatchObject({ delivery_id: 'dlv_nope', status_code: 404 });
    expect(second).toMatchObject({ delivery_id: taken!.delivery_id, signature: 'invalid', status_code: 400 });
  });

  it('offers no test receiver when loopback targets are refused (no --allow-insecure-webhooks)', async () => {
    const server = await start();
    const view = await readBody(await consoleApi(server, 'deliveries'));
    expect(view.data.receiver).toEqual({ url: null, received: [] });
    const refused = await consoleApi(server, 'webhooks', {
      method: 'POST',
      body: JSON.stringify({ target_url: `${server.origin}/_console/receiver`, events: ['task.created'] }),
    });
    expect(refused.status).toBe(400);
  });

  it('streams each committed change as a server-sent event, and closes with streams open', async () => {
    const server = await start();
    const controller = new AbortController();
    const stream = await fetch(`${server.origin}/_console/events`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const created = await readBody(
      await v2(server, '/tasks', {
        method: 'POST',
        body: JSON.stringify({ list_id: 'lst_backlog', title: 'Live one' }),
      }),
    );
    const started = Date.now();
    while (!text.includes(created.data.id) && Date.now() - started < 2000) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    const line = text
      .split('\n')
      .find((candidate) => candidate.startsWith('data: ') && candidate.includes(created.data.id));
    expect(JSON.parse(line!.slice(6))).toContainEqual({
      topic: 'task',
      type: 'task.created',
      task_id: created.data.id,
      board_id: 'brd_product',
      list_id: 'lst_backlog',
    });
    // The server's shutdown ends the stream rather than waiting for the page to go.
    const closing = server.close();
    running.splice(running.indexOf(server), 1);
    await closing;
    controller.abort();
  });
});

/** A GET with raw headers and the raw answer (fetch would undo the compression this looks at). */
function rawGet(origin: string, path: string, headers: Record<string, string>) {
  const url = new URL(path, origin);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>(
    (resolve, reject) => {
      http
        .get({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              bytes: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject);
    },
  );
}

describe('the console’s answers on the wire', () => {
  it('compresses the page, its script and its API (brotli or gzip, as asked), and leaves the API’s answers as they were', async () => {
    const server = await start();
    const html = await rawGet(server.origin, '/boards/brd_product', {
      accept: 'text/html',
      'accept-encoding': 'br, gzip',
    });
    expect(html.headers['content-encoding']).toBe('br');
    const page = brotliDecompressSync(html.bytes).toString();
    expect(page).toContain('<html lang="en">');
    const script = /src="(\/_console\/assets\/console\.[0-9a-f]{16}\.js)"/.exec(page)![1]!;
    const asset = await rawGet(server.origin, script, { 'accept-encoding': 'gzip' });
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(asset.bytes).length).toBeGreaterThan(asset.bytes.length * 2);
    const token = await consoleToken(server);
    const board = await rawGet(server.origin, '/_console/api/boards/brd_product', {
      'accept-encoding': 'br',
      'x-console-token': token,
    });
    expect(board.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(board.bytes).toString()).data.board.id).toBe('brd_product');
    // Without Accept-Encoding, as it is.
    const plain = await rawGet(server.origin, '/_console/api/boards/brd_product', {
      'x-console-token': token,
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    // The API's routes are not the console's: never compressed, whatever the client accepts.
    const tasks = await rawGet(server.origin, '/v2/tasks?list_id=lst_backlog', {
      authorization: `Bearer ${DEMO_CREDENTIALS.v2Secret}`,
      'accept-encoding': 'br, gzip',
    });
    expect(tasks.status).toBe(200);
    expect(tasks.headers['content-encoding']).toBeUndefined();
  });

  it('answers a page path it does not have with its 404 page to a browser, and JSON to anyone else', async () => {
    const server = await start();
    const page = await fetch(`${server.origin}/no/such/page`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Page not found · Threadwork console</title>');
    const token = await consoleToken(server);
    for (const [path, accept] of [
      ['/no/such/page', 'application/json'],
      ['/v2/no-such-thing', 'text/html'],
      ['/api/v1/nothing', 'text/html'],
      ['/_console/api/nothing', 'text/html'],
    ] as const) {
      const answer = await fetch(`${server.origin}${path}`, {
        headers: { accept, 'x-console-token': token },
      });
      expect(answer.status, path).toBe(404);
      expect((await readBody(answer)).error.code, path).toBe('not_found');
    }
    // Another machine's browser (a foreign Host) gets the guard's 403, not a page.
    const foreign = await rawRequest(server.origin, '/no/such/page', {
      headers: { host: 'example.com', accept: 'text/html' },
    });
    expect(foreign.status).toBe(403);
  });

  it('says, on every answer of its API, where the change feed stood as the read began; the stream starts by saying where it starts', async () => {
    const server = await start();
    const controller = new AbortController();
    const stream = await fetch(`${server.origin}/_console/events`, { signal: controller.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const readUntil = async (done: (text: string) => boolean) => {
      const started = Date.now();
      while (!done(text) && Date.now() - started < 3000) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += chunk.value;
      }
    };
    await readUntil((seen) => seen.includes('event: sync'));
    const begins = JSON.parse(/event: sync\ndata: (.+)\n/.exec(text)![1]!) as string;
    const [instance, count] = begins.split('.');
    expect(instance).toMatch(/^[0-9a-f]{8}$/);
    const before = await consoleApi(server, 'boards/brd_product');
    expect(before.headers.get('x-console-at')).toBe(begins);
    // A reorder records no event, yet its change is published, and the feed moves on.
    await v2(server, '/tasks/tsk_demo_p04/reorder', {
      method: 'POST',
      body: JSON.stringify({ position: 'top' }),
    });
    await readUntil((seen) => seen.includes('task.reordered'));
    const event = /id: (\S+)\ndata: (.+)\n/.exec(text.slice(text.indexOf('id: ')))!;
    expect(event[1]).toBe(`${instance}.${Number(count) + 1}`);
    expect(JSON.parse(event[2]!)).toEqual([
      {
        topic: 'task',
        type: 'task.reordered',
        task_id: 'tsk_demo_p04',
        board_id: 'brd_product',
        list_id: 'lst_backlog',
      },
    ]);
    const after = await consoleApi(server, 'tasks/nope');
    expect(after.status).toBe(404);
    expect(after.headers.get('x-console-at')).toBe(event[1]);
    controller.abort();
  });

  it('retries a subscription’s failed events once each, and not those delivered since', async () => {
    // The whole retry schedule in about a second.
    const server = await start({ allowInsecureWebhooks: true, webhookTimeScale: 0.00001 });
    const receiver = await startReceiver();
    try {
      receiver.answerWith(500);
      const subscription = await readBody(
        await v2(server, '/webhooks/subscriptions', {
          method: 'POST',
          body: JSON.stringify({ target_url: receiver.url, events: ['task.created'] }),
        }),
      );
      for (const title of ['One', 'Two']) {
        await v2(server, '/tasks', {
          method: 'POST',
          body: JSON.stringify({ list_id: 'lst_backlog', title }),
        });
      }
      const statuses = async () =>
        (
          await readBody(await v2(server, `/webhooks/subscriptions/${subscription.data.id}/deliveries`))
        ).data.map((delivery: { status: string }) => delivery.status);
      await expect.poll(statuses, { timeout: 10_000 }).toEqual(['failed', 'failed']);
      receiver.answerWith(200);
      const retry = async () =>
        (
          await readBody(
            await consoleApi(server, `webhooks/${subscription.data.id}/retry-failed`, { method: 'POST' }),
          )
        ).data;
      expect(await retry()).toEqual({ queued: 2 });
      await expect.poll(statuses, { timeout: 5000 }).toEqual(['delivered', 'delivered', 'failed', 'failed']);
      // Delivered since: nothing left to retry.
      expect(await retry()).toEqual({ queued: 0 });
      // Another user's console cannot retry it.
      const other = await start({ consoleUser: 'grace@northwind.test' });
      const foreign = await consoleApi(other, `webhooks/${subscription.data.id}/retry-failed`, {
        method: 'POST',
      });
      expect(foreign.status).toBe(404);
    } finally {
      await receiver.close();
    }
  });
});

describe('the CLI flags', () => {
  it('refuses --console-user without --console, or without an email', async () => {
    const alone = await runCli(['--db', ':memory:', '--port', '0', '--console-user', 'ada@northwind.test']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--console-user needs --console');
    const notEmail = await runCli(['--db', ':memory:', '--port', '0', '--console', '--console-user', 'ada']);
    expect(notEmail.code).toBe(2);
    expect(notEmail.stderr).toContain('--console-user must be an email address');
  });

  it('prints, for --host 0.0.0.0, a console URL on loopback, which answers', async () => {
    const server = await spawnServer([
      '--db',
      ':memory:',
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--demo',
      '--console',
    ]);
    try {
      await expect
        .poll(() => /console: (\S+)/.exec(server.stderr())?.[1])
        .toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const url = /console: (\S+)/.exec(server.stderr())![1]!;
      expect(url).toBe(`${server.origin.replace('0.0.0.0', '127.0.0.1')}/`);
      // The console answers there: its page (with its token), then its API.
      const overview = await consoleApi({ origin: url.replace(/\/$/, '') }, 'overview');
      expect(overview.status).toBe(200);
      expect((await readBody(overview)).data.user.email).toBe(DEMO_CREDENTIALS.email);
    } finally {
      await server.stop();
    }
  }, 30_000);
});
