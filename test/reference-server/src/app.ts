import { service } from '@threadwork/shared/operations';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { consoleRoutes } from './console/routes.ts';
import { invalidField, ServiceError } from './domain/errors.ts';
import { newRequestId } from './domain/ids.ts';
import { authTokenRoutes } from './http/auth-token.ts';
import { installCommitBeforeAnswer } from './http/commit-before-answer.ts';
import type { AppContext } from './http/context.ts';
import { controlRoutes } from './http/control.ts';
import { ERROR_SERVER_OPTIONS, findNul, installErrorHandling, NUL_MESSAGE } from './http/errors.ts';
import { installIdempotencyStore } from './http/idempotency.ts';
import { openApiRoutes } from './http/openapi/routes.ts';
import { decorateApp } from './http/request-state.ts';
import { route } from './http/route.ts';
import { v1BoardRoutes } from './http/v1/boards.ts';
import { v1ItemRoutes } from './http/v1/items.ts';
import { v1ListRoutes } from './http/v1/lists.ts';
import { v1SubscriptionRoutes } from './http/v1/subscriptions.ts';
import { v1TeamRoutes } from './http/v1/teams.ts';
import { analysisRoutes } from './http/v2/analysis.ts';
import { apiKeyRoutes } from './http/v2/api-keys.ts';
import { boardRoutes } from './http/v2/boards.ts';
import { crmRoutes } from './http/v2/crm.ts';
import { customFieldRoutes } from './http/v2/custom-fields.ts';
import { draftRoutes } from './http/v2/drafts.ts';
import { emailRoutes } from './http/v2/email.ts';
import { emailWriteRoutes } from './http/v2/email-writes.ts';
import { listRoutes } from './http/v2/lists.ts';
import { meRoutes } from './http/v2/me.ts';
import { taskRoutes } from './http/v2/tasks.ts';
import { teamRoutes } from './http/v2/teams.ts';
import { webhookRoutes } from './http/v2/webhooks.ts';

function mountAll(areas: readonly FastifyPluginAsync[]): FastifyPluginAsync {
  return async (scope) => {
    for (const routes of areas) await routes(scope, {});
  };
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Route plugins of the v2 face (each registers its declared operations, `/v2/…`). Add a new area here. */
const V2_ROUTES: FastifyPluginAsync[] = [
  meRoutes,
  teamRoutes,
  boardRoutes,
  listRoutes,
  webhookRoutes,
  emailRoutes,
  emailWriteRoutes,
  draftRoutes,
  analysisRoutes,
  taskRoutes,
  customFieldRoutes,
  apiKeyRoutes,
  crmRoutes,
];
/** Route plugins of the v1 face (`/api/v1/…`). */
const V1_ROUTES: FastifyPluginAsync[] = [
  v1SubscriptionRoutes,
  v1TeamRoutes,
  v1BoardRoutes,
  v1ListRoutes,
  v1ItemRoutes,
];

/** A route as registered: its method and its full path pattern (`/v2/tasks/:id`). */
export interface RouteSummary {
  method: string;
  url: string;
}

const routeLists = new WeakMap<FastifyInstance, RouteSummary[]>();

/** Every route of an app built by `buildApp`, in registration order (HEAD twins of GET left out). */
export function routesOf(app: FastifyInstance): readonly RouteSummary[] {
  return routeLists.get(app) ?? [];
}

/**
 * Requests are validated with the declared zod schemas (`http/route.ts`) and answers are plain JSON, so no
 * route has a Fastify JSON schema. Fastify's default compilers (ajv, fast-json-stringify) would be loaded
 * and set up at start-up for nothing; these refuse a route schema instead.
 */
const noRouteSchemas = () => () => {
  throw new Error('route JSON schemas are not used here: validate with the shared zod schemas');
};

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    schemaController: {
      compilersFactory: { buildValidator: noRouteSchemas, buildSerializer: noRouteSchemas },
    },
    logger: ctx.options.logger === false ? false : { level: ctx.options.logger, stream: process.stderr },
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Close idle keep-alive sockets on shutdown; in-flight requests still finish.
    forceCloseConnections: 'idle',
    ...ERROR_SERVER_OPTIONS,
  });
  const routes: RouteSummary[] = [];
  routeLists.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url });
    }
  });
  decorateApp(app, ctx);
  installErrorHandling(app);
  installIdempotencyStore(app);
  installCommitBeforeAnswer(app);

  // JSON only; the raw text is kept for idempotency fingerprints. Anything else is 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      done(
        new ServiceError('invalid_json', `request body is not valid JSON: ${(error as Error).message}`),
        undefined,
      );
      return;
    }
    // A NUL can only arrive escaped; the walk runs only when the text holds the escape.
    const nulAt = text.includes('\\u0000') ? findNul(parsed) : null;
    if (nulAt !== null) return done(invalidField(nulAt, NUL_MESSAGE), undefined);
    done(null, parsed);
  });

  const roots = {
    name: 'threadwork reference server',
    versions: { v2: '2.0.0', v1: '1.5' },
    roots: { v2: '/v2', v1: '/api/v1', auth: '/auth/api_token' },
  };
  // With --console, `/` is the console's (a browser gets its first page, a JSON client the roots). The
  // console adds hooks of its own (compression, ending its event streams on shutdown): a context of its own.
  if (ctx.consoleUser !== undefined) await app.register(consoleRoutes, { roots });
  else route(app, service.roots, async () => roots);
  // One plugin context for every area, not one per area: the route modules add routes only (no hooks or
  // decorators; each route has its full path), and every extra context costs start-up time.
  await app.register(mountAll([authTokenRoutes, controlRoutes, openApiRoutes, ...V2_ROUTES, ...V1_ROUTES]));
  return app;
}
