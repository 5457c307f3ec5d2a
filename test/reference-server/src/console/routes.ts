// The console's routes (`--console` only; docs/console.md). Registering them is all that happens at
// start: the pages' API (api.ts) and the browser bundle (bundle.ts) load on the first console request.
// The console acts as a user without a sign-in, so every console route answers loopback clients only,
// addressed by a loopback name (a DNS-rebound page reaches 127.0.0.1 under a foreign Host), and a write
// must come from a page of the console itself (Origin); anyone else gets 403 in the error envelope.
// Its API also needs the page's token: a random value per server, written into the page it serves and
// sent back by the page's script, which neither a webhook delivery (a POST from loopback without an
// Origin) nor a page of another origin (it cannot read ours) can know.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../domain/errors.ts';
import { openFeed } from '../domain/events/feed.ts';
import { isLoopbackHost } from '../domain/webhook-targets.ts';
import type { AppContext } from '../http/context.ts';
import { CONSOLE_API_PREFIX, CONSOLE_RECEIVER_PATH } from './addresses.ts';

/** The console's pages, as the browser's router knows them too (console/router.ts). */
export const CONSOLE_PAGES = [
  '/boards/:id',
  '/tasks/:id',
  '/mail',
  '/mail/:id',
  '/deliveries',
  '/keys',
] as const;
export const CONSOLE_ASSETS_PREFIX = '/_console/assets/';
export const CONSOLE_EVENTS_PATH = '/_console/events';
/** The header the console's pages send the page's token in (console/http.ts, `consoleFetch`). */
const CONSOLE_TOKEN_HEADER = 'x-console-token';

function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

function hostnameOf(authority: string): string | null {
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return null;
  }
}

/** 403 unless a loopback client asked for a loopback name; writes also need the console's own Origin. */
export function guardConsole(request: FastifyRequest): void {
  const refuse = (why: string) => {
    throw new ServiceError('forbidden', `the console answers only on this machine: ${why}`);
  };
  if (!isLoopbackAddress(request.socket.remoteAddress)) refuse('the request did not come from loopback');
  const host = hostnameOf(request.headers.host ?? '');
  if (host === null || !isLoopbackHost(host)) refuse('the Host header is not a loopback name');
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${request.headers.host}`) {
      refuse('a write must come from a console page');
    }
  }
}

const pageTokens = new WeakMap<AppContext, string>();

/** This server's page token: 32 random bytes, made on first use, the same for every page it serves. */
function pageToken(ctx: AppContext): string {
  let token = pageTokens.get(ctx);
  if (token === undefined) {
    token = randomBytes(32).toString('base64url');
    pageTokens.set(ctx, token);
  }
  return token;
}

/** 403 unless the request carries this server's page token (compared in constant time). */
function requirePageToken(request: FastifyRequest): void {
  const sent = request.headers[CONSOLE_TOKEN_HEADER];
  const expected = Buffer.from(pageToken(request.server.ctx));
  const given = Buffer.from(typeof sent === 'string' ? sent : '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ServiceError(
      'forbidden',
      `the console acts only for its own pages: the request did not carry the page’s ${CONSOLE_TOKEN_HEADER} (reload the page if the server was restarted)`,
    );
  }
}

/** Whether a request for `/` asks for a page (a browser) rather than JSON (the API roots answer). */
function wantsPage(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

type ConsoleApi = typeof import('./api.ts');
let api: Promise<ConsoleApi> | undefined;
const loadApi = () => {
  api ??= import('./api.ts');
  return api;
};

/** Serves a console page (the app's shell; the browser's router draws the page). */
async function servePage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  guardConsole(request);
  return (await loadApi()).sendShell(reply, 200, pageToken(request.server.ctx));
}

/** Paths that are the API's, never a console page: an unknown one answers the API's JSON 404. */
const API_PREFIXES = ['/v2', '/api/', '/auth/', '/_control/', '/_console/'];

/**
 * The console's routes, each answering only as `guardConsole` allows. With the console on, `/` answers a
 * browser with the console and anyone else with the API roots (`roots`), and an unknown page path a
 * browser asks for gets the console's 404 page. Console answers are compressed (brotli or gzip, as the
 * client accepts); the API's routes, registered outside this plugin, are left as they are.
 */
export async function consoleRoutes(app: FastifyInstance, { roots }: { roots: object }): Promise<void> {
  openFeed(app.ctx.db);
  await app.register(compress, { encodings: ['br', 'gzip'] });
  app.get('/', async (request, reply) => {
    if (wantsPage(request)) return servePage(request, reply);
    reply.header('vary', 'accept');
    return roots;
  });
  for (const url of CONSOLE_PAGES) app.get(url, servePage);
  // Every other GET: the console's 404 page for a browser on this machine, else the API's JSON 404.
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!wantsPage(request) || API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      return reply.callNotFound();
    }
    guardConsole(request);
    return (await loadApi()).sendShell(reply, 404, pageToken(request.server.ctx));
  });
  app.get(
    `${CONSOLE_ASSETS_PREFIX}:name`,
    async (request: FastifyRequest<{ Params: { name: string } }>, reply) => {
      guardConsole(request);
      return (await loadApi()).sendAsset(reply, request.params.name);
    },
  );
  // An event stream never ends on its own: the server's shutdown ends them, or it would wait forever.
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  app.get(CONSOLE_EVENTS_PATH, async (request, reply) => {
    guardConsole(request);
    (await loadApi()).streamChanges(app, request, reply, streams);
  });
  // The worker posts from loopback, to a loopback Host, without an Origin: the guard lets it through,
  // and it needs no token. It is the one route of ours a webhook may target: it only records and
  // verifies what it is sent (docs/webhooks.md, "The service never calls itself").
  // The live feed needs no token either: it changes nothing, a delivery (a POST) cannot reach it, and
  // a page of another origin cannot read it (docs/console.md).
  app.post(CONSOLE_RECEIVER_PATH, async (request, reply) => {
    guardConsole(request);
    return (await import('./receiver.ts')).receive(app, request, reply);
  });
  app.route({
    method: ['GET', 'POST', 'PATCH', 'DELETE'],
    url: `${CONSOLE_API_PREFIX}*`,
    handler: async (request, reply) => {
      guardConsole(request);
      requirePageToken(request);
      return (await loadApi()).handleApi(app, request, reply);
    },
  });
}
