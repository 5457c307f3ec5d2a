import { Validator } from '@seriousme/openapi-schema-validator';
import { OPERATIONS } from '@threadwork/shared/operations';
import { EVENT_TYPES } from '@threadwork/shared/schemas';
import { SIGNATURE_HEADER } from '@threadwork/shared/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey, UNDOCUMENTED_PREFIXES } from '../src/http/openapi/document.ts';
import { type RunningServer, startServer } from '../src/index.ts';
import { problemsOf } from './helpers/contract.ts';
import type { Exchange } from './helpers/contract-checker.ts';
import { fixtureSeed } from './helpers/fixtures.ts';
import { servedRoutes, toOpenApiPath } from './helpers/served-routes.ts';
import { readAnswer, readBody } from './helpers/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, db: ':memory:', seed: fixtureSeed, logger: false });
});
afterAll(() => server.close());

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;

async function fetchDocument(): Promise<Json> {
  const response = await fetch(`${server.origin}/v2/openapi.json`);
  expect(response.status).toBe(200);
  return readBody(response);
}

describe('GET /v2/openapi.json', () => {
  it('answers the document without credentials, the same document each time', async () => {
    const { status, headers, body } = await readAnswer(await fetch(`${server.origin}/v2/openapi.json`));
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body.openapi).toBe('3.1.0');
    expect(await fetchDocument()).toEqual(body);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(await fetchDocument());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes each served operation with its scopes, parameters, envelope and errors', async () => {
    const document = await fetchDocument();
    const create = document.paths['/v2/tasks'].post;
    expect(create['x-required-scopes']).toEqual(['tasks.write']);
    expect(create.security).toEqual([{ bearerKey: ['tasks.write'] }, { sessionToken: [] }]);
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(create.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateTaskRequest',
    });
    expect(Object.keys(create.responses).sort()).toEqual(
      ['200', '400', '401', '402', '403', '404', '409', '413', '415', '500', '503'].sort(),
    );
    expect(create.responses['409'].description).toContain('mailbox_not_connected');
    expect(create.responses['503'].description).toContain('service_unavailable');
    expect(Object.keys(create.responses['503'].headers)).toContain('Retry-After');

    const list = document.paths['/v2/tasks'].get;
    expect(list.parameters.map((parameter: Json) => parameter.name)).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'list_id', 'board_id', 'completed']),
    );
    expect(list.parameters.find((parameter: Json) => parameter.name === 'limit').schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 200,
      default: 50,
    });
    const page = document.components.schemas.TaskPage;
    expect(page.properties.data.items).toEqual({ $ref: '#/components/schemas/Task' });
    expect(document.components.schemas.PageMeta.required).toContain('pagination');

    expect(document.paths['/v2/me'].get.security).toEqual([{ bearerKey: [] }, { sessionToken: [] }]);
    expect(document.paths['/v2/openapi.json'].get.security).toEqual([]);
    // v1 shows its scopes as v2 does: the session token is held to those of its legacy key.
    const v1Create = document.paths['/api/v1/items/createFromEmail'].post;
    expect(v1Create['x-required-scopes']).toEqual(['tasks.write', 'email.metadata.read']);
    expect(v1Create.security).toEqual([{ sessionToken: ['tasks.write', 'email.metadata.read'] }]);
    expect(v1Create.responses['403'].description).toContain('insufficient_scope');
    expect(document.paths['/api/v1/items'].get['x-required-scopes']).toEqual(['tasks.read']);
    expect(document.paths['/auth/api_token'].post.responses['403']).toBeUndefined();
    // Request shapes are the input side of the schemas: a field with a default is optional.
    expect(document.components.schemas.PaginationMeta.required).toEqual(['next_cursor', 'has_more', 'limit']);
    // Open enums list their known values and stay open.
    expect(document.components.schemas.Task.properties.shade).toMatchObject({ type: 'string' });
    expect(document.components.schemas.Task.properties.shade.examples).toContain('deep_orange');
  });

  it('describes what the service POSTs for every v2 event type, and the v1 hook', async () => {
    const document = await fetchDocument();
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES, 'v1-hook'].sort());
    const moved = document.webhooks['task.moved'].post;
    expect(moved.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/TaskMovedEvent',
    });
    expect(moved.parameters.map((parameter: Json) => parameter.name)).toContain(SIGNATURE_HEADER);
    const data = document.components.schemas.TaskMovedEvent.properties.data;
    expect(data.required).toEqual(expect.arrayContaining(['task', 'from_list_id', 'to_list_id']));
  });
});

describe('the declared operations', () => {
  const served = () =>
    servedRoutes(server.app).filter(
      (route) => !UNDOCUMENTED_PREFIXES.some((prefix) => route.url.startsWith(prefix)),
    );
  const declared = new Map(
    OPERATIONS.map((operation) => [routeKey(operation.method, operation.path), operation]),
  );

  it('declare every route the server serves', () => {
    const missing = served()
      .map((route) => routeKey(route.method, toOpenApiPath(route.url)))
      .filter((key) => !declared.has(key));
    expect(missing).toEqual([]);
  });

  it('are each served', () => {
    const servedKeys = new Set(served().map((route) => routeKey(route.method, toOpenApiPath(route.url))));
    const unserved = [...declared.keys()].filter((key) => !servedKeys.has(key));
    expect(unserved).toEqual([]);
  });

  it('name, for each v2 and v1 route, exactly the scopes its guard checks', () => {
    const differing = served()
      .filter((route) => route.url.startsWith('/v2/') || route.url.startsWith('/api/v1/'))
      .map((route) => ({
        route: routeKey(route.method, toOpenApiPath(route.url)),
        guard: route.scopes,
        declared: declared.get(routeKey(route.method, toOpenApiPath(route.url)))?.scopes ?? [],
      }))
      .filter((entry) => entry.guard.join() !== entry.declared.join());
    expect(differing).toEqual([]);
  });

  it('give every operation a unique operationId', () => {
    const ids = OPERATIONS.map((operation) => operation.operationId);
    expect(ids.length).toBe(new Set(ids).size);
  });
});

describe('the contract check', () => {
  const answer = (data: unknown, status = 200): Omit<Exchange, 'method' | 'url' | 'requestBody'> => ({
    requestHeaders: { authorization: 'Bearer tw_x' },
    status,
    responseHeaders: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_1' },
    responseBody: data,
  });
  const me = { user_id: 'usr_ada', email: null, display_name: null };

  it('passes an exchange the document describes', async () => {
    const exchange = {
      method: 'GET',
      url: '/v2/me',
      requestBody: undefined,
      ...answer({ data: me, meta: { request_id: 'req_1' } }),
    };
    expect(await problemsOf(exchange)).toEqual([]);
  });

  it('reports an answer that breaks the document', async () => {
    const noMeta = { method: 'GET', url: '/v2/me', requestBody: undefined, ...answer({ data: me }) };
    expect((await problemsOf(noMeta)).join()).toMatch(/the answer breaks the document.*meta/);
    const wrongStatus = {
      method: 'GET',
      url: '/v2/me',
      requestBody: undefined,
      ...answer({ data: me }, 418),
    };
    expect(await problemsOf(wrongStatus)).not.toEqual([]);
    const ok = answer({ data: me, meta: { request_id: 'req_1' } });
    const noRequestId = {
      method: 'GET',
      url: '/v2/me',
      requestBody: undefined,
      ...ok,
      responseHeaders: { 'content-type': 'application/json' },
    };
    expect((await problemsOf(noRequestId)).join()).toMatch(/x-request-id/);
  });

  it('reports a request the document rejects that the server accepted, and an undocumented 2xx', async () => {
    const task = { method: 'POST', url: '/v2/tasks', requestBody: { title: 'no list' } };
    const sent = { 'content-type': 'application/json', 'content-length': '18' };
    const accepted = { ...task, ...answer({ data: {}, meta: { request_id: 'req_1' } }) };
    accepted.requestHeaders = { ...accepted.requestHeaders, ...sent };
    expect((await problemsOf(accepted)).join()).toMatch(/accepted a request the document rejects/);
    const refused = { ...task, ...answer({ error: { code: 'validation_error', message: 'list_id' } }, 400) };
    expect(await problemsOf(refused)).toEqual([]);
    const unknown = { method: 'GET', url: '/v2/nowhere', requestBody: undefined, ...answer({}) };
    expect((await problemsOf(unknown)).join()).toMatch(/no such operation/);
  });
});
