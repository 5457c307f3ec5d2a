// What the OpenAPI document says about the routes of the service roots (`/` in app.ts, the document in routes.ts): one entry per route, beside it.
import { z } from 'zod';
import type { RouteEntry } from './entry.ts';

export const SERVICE_ROUTES: readonly RouteEntry[] = [
  {
    method: 'GET',
    path: '/',
    operationId: 'getRoots',
    tag: 'Service',
    summary: 'The roots of the service',
    description: 'Names the service and where v2, v1 and the token endpoint live.',
    auth: 'none',
    bare: z.looseObject({
      name: z.string(),
      versions: z.looseObject({ v2: z.string(), v1: z.string() }),
      roots: z.looseObject({ v2: z.string(), v1: z.string(), auth: z.string() }),
    }),
  },
  {
    method: 'GET',
    path: '/v2/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Service',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 document of v2, v1 and the token endpoint, built from the server’s own schemas.',
    auth: 'none',
    bare: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
  },
];
