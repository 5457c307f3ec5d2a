// The console's server side (docs/console.md): only with --console, only for loopback clients addressed
// by a loopback name, writes only from its own pages; `/` still answers JSON to a client asking for it;
// the acting user; the live feed (server-sent events after commit) and a clean shutdown with streams open.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_CREDENTIALS } from '../src/seed/demo.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { freshDatabase } from './helpers/database.ts';
import { fixtureSeed } from './helpers/fixtures.ts';
import { offlineResolver, readBody, runCli } from './helpers/server.ts';

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
    }
  });

  it('acts as the first user of the demo by default, or as --console-user', async () => {
    const demo = await start();
    expect(demo.console?.email).toBe(DEMO_CREDENTIALS.email);
    const overview = await readBody(await fetch(`${demo.origin}/_console/api/overview`));
    expect(overview.data.user.email).toBe(DEMO_CREDENTIALS.email);

    const grace = await start({ consoleUser: 'GRACE@northwind.test' });
    expect(grace.console?.userId).toBe('usr_grace');

    const seeded = await start({ demo: false, seed: fixtureSeed });
    expect(seeded.console?.userId).toBe(fixtureSeed.users?.[0]?.id);

    await expect(start({ consoleUser: 'nobody@northwind.test' })).rejects.toThrow(
      '--console-user nobody@northwind.test: no user has that email',
    );
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
    const foreignHost = await rawRequest(server.origin, '/_console/api/overview', {
      headers: { host: 'evil.test' },
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
      },
      body,
    });
    expect(sameSite.status).toBe(200);
  });

  it('validates what it is sent, with the API’s error envelope, and loses nothing', async () => {
    const server = await start();
    const bad = await fetch(`${server.origin}/_console/api/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ list_id: 'lst_backlog', title: '' }),
    });
    expect(bad.status).toBe(400);
    expect((await readBody(bad)).error.code).toBe('validation_error');
    const missing = await fetch(`${server.origin}/_console/api/tasks/tsk_nope`);
    expect(missing.status).toBe(404);
    const unknown = await fetch(`${server.origin}/_console/api/nothing-here`);
    expect(unknown.status).toBe(404);
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

describe('the CLI flags', () => {
  it('refuses --console-user without --console, or without an email', async () => {
    const alone = await runCli(['--db', ':memory:', '--port', '0', '--console-user', 'ada@northwind.test']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--console-user needs --console');
    const notEmail = await runCli(['--db', ':memory:', '--port', '0', '--console', '--console-user', 'ada']);
    expect(notEmail.code).toBe(2);
    expect(notEmail.stderr).toContain('--console-user must be an email address');
  });
});
