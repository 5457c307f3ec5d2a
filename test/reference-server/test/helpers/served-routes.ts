// Records the routes of every Fastify app this process creates (through Fastify's `fastify.initialization`
// diagnostics channel, so the server's code needs no test hook), with the scopes each route's guard checks.
import { subscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { scopesCheckedBy } from '../../src/http/auth.ts';

export interface ServedRoute {
  method: string;
  /** Fastify style: `/v2/tasks/:id`. */
  url: string;
  /** What the route's pre-handlers check with `requireScope`. */
  scopes: string[];
}

const servedRoutesOf = new WeakMap<FastifyInstance, ServedRoute[]>();

subscribe('fastify.initialization', (message) => {
  const app = (message as { fastify: FastifyInstance }).fastify;
  const routes: ServedRoute[] = [];
  servedRoutesOf.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const handlers = route.preHandler === undefined ? [] : [route.preHandler].flat();
    const scopes = handlers.flatMap((handler) => [...scopesCheckedBy(handler)]);
    // Fastify adds a HEAD route beside every GET on its own.
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url, scopes });
  });
});

export function servedRoutes(app: FastifyInstance): readonly ServedRoute[] {
  const routes = servedRoutesOf.get(app);
  if (!routes) throw new Error('this app was created before served-routes.ts was loaded');
  return routes;
}

/** `/v2/tasks/:id` → `/v2/tasks/{id}` */
export const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
