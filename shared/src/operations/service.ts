// The service's roots: what `/` names, and the OpenAPI document itself.
import { z } from 'zod';
import { operation } from './operation.ts';

export const service = {
  roots: operation({
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
  }),
  openApiDocument: operation({
    method: 'GET',
    path: '/v2/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Service',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 document of v2, v1 and the token endpoint, built from the server’s own schemas.',
    auth: 'none',
    bare: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
  }),
};
