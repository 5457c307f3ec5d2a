// Builds the OpenAPI 3.1 document from the declared operations (`@threadwork/shared/operations`) and the
// shared zod schemas (zod 4's JSON Schema output, which is the dialect OpenAPI 3.1 uses). Nothing here
// restates a shape, a scope or a description by hand.
import { OPERATIONS, type Operation, pathParamNames } from '@threadwork/shared/operations';
import {
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorCode,
  envelope,
  Meta,
  OPT_IN_SCOPES,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PaginationMeta,
  ReplyRequest,
  SCOPES,
} from '@threadwork/shared/schemas';
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER } from '@threadwork/shared/webhooks';
import { z } from 'zod';
import { EVENTS, REQUEST_COMPONENTS, RESPONSE_COMPONENTS } from './components.ts';

type JsonObject = Record<string, unknown>;

/**
 * Served but left out of the document on purpose: test-only endpoints (present only with --test-control)
 * and the console's pages, assets and API (present only with --console; docs/console.md).
 */
export const UNDOCUMENTED_PREFIXES: readonly string[] = [
  '/_control/',
  '/_console/',
  '/boards/',
  '/tasks/',
  '/mail',
  '/deliveries',
  '/keys',
];

export const routeKey = (method: string, path: string) => `${method} ${path}`;

const SCHEMA_REF = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMA_REF}${name}` });
const WRITE_METHODS = new Set(['POST', 'PATCH', 'DELETE']);
/** The error answers that carry `Retry-After`. */
const RETRY_AFTER_CODES: ReadonlySet<ErrorCode> = new Set([
  'idempotency_in_progress',
  'rate_limited',
  'service_unavailable',
]);

const PARAM_DESCRIPTIONS: Record<string, string> = {
  limit: `Page size, 1–${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT}).`,
  cursor: 'Opaque: the `meta.pagination.next_cursor` of the previous page.',
  team_id: 'The team (`team_…`).',
  list_id: 'The list (`lst_…`).',
  board_id: 'The board (`brd_…`).',
  completed: '`false` leaves completed tasks out (they are listed by default); `true` lists only them.',
  q: 'Search terms.',
  include: '`messages` adds every message with its bodies (needs email.body.read).',
  status: 'Only deliveries in this state.',
  teamId: 'The team.',
  boardId: 'The board.',
  listId: 'The list.',
};

/**
 * What each error code means, for the descriptions of the error answers. Keyed by string so that a code
 * described here before the shared schemas have it does no harm; a code missing here is shown bare.
 */
const ERROR_MEANINGS: Record<string, string> = {
  invalid_request: 'the request is not well-formed HTTP, or cannot be routed at all',
  validation_error: 'a parameter, header or body field is wrong; `details` lists `{ path, message }`',
  invalid_json: 'the body is not JSON',
  unauthenticated: 'credentials missing, wrong or expired',
  subscription_required: 'the team’s subscription is not paid',
  insufficient_scope: 'the key lacks a scope; `details.required_scopes` names it',
  not_found: 'no such object, or one the caller may not see (the two are never told apart), or no such route',
  idempotency_conflict: 'the Idempotency-Key was used with a different request',
  idempotency_in_progress: 'a request with this Idempotency-Key is still running; retry after `Retry-After`',
  mailbox_not_connected: 'no mailbox is connected',
  mailbox_reauth_required: 'the mailbox must be reconnected',
  payload_too_large: 'the body is larger than 1 MiB',
  unsupported_media_type: 'the body is not `application/json`',
  rate_limited: 'too many requests; retry after `Retry-After`',
  internal_error: 'the server failed',
  service_unavailable: 'the server is shutting down (draining); retry after `Retry-After`',
};

/** 400 codes about a request as such rather than its input: any route can answer them. */
const MALFORMED_REQUEST: readonly ErrorCode[] = ERROR_CODES.filter(
  (code) => ERROR_STATUS[code] === 400 && code !== 'validation_error' && code !== 'invalid_json',
);

/** The error codes an operation can answer: those of its kind, the gate's, and its own. */
export function errorCodesOf(route: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(MALFORMED_REQUEST);
  const takesInput = route.path.includes('{') || route.query !== undefined || route.body !== undefined;
  if (takesInput || WRITE_METHODS.has(route.method)) codes.add('validation_error');
  if (route.auth !== 'none') codes.add('unauthenticated');
  const scoped = route.scopes.length > 0 || (route.scopesWhenSent?.length ?? 0) > 0;
  if (route.auth !== 'none' && scoped) codes.add('insufficient_scope');
  if (route.auth !== 'none' && takesInput) codes.add('not_found');
  if (WRITE_METHODS.has(route.method)) {
    for (const code of ['invalid_json', 'payload_too_large', 'unsupported_media_type'] as const)
      codes.add(code);
  }
  if (route.idempotent) {
    codes.add('idempotency_conflict');
    codes.add('idempotency_in_progress');
  }
  if (route.gated) codes.add('subscription_required');
  for (const code of route.errors ?? []) codes.add(code);
  codes.add('internal_error');
  codes.add('service_unavailable');
  return [...codes];
}

const pascal = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Registers schemas under names and converts them in one pass, so that they refer to each other by `$ref`. */
class ComponentSet {
  readonly registry = z.registry<{ id: string; description?: string }>();
  private readonly names = new Map<z.ZodType, string>();

  constructor(named: readonly (readonly [string, z.ZodType, string])[]) {
    for (const [name, schema, description] of named) this.add(name, schema, description);
  }

  add(name: string, schema: z.ZodType, description?: string): string {
    const known = this.names.get(schema);
    if (known) return known;
    this.names.set(schema, name);
    this.registry.add(schema, description ? { id: name, description } : { id: name });
    return name;
  }

  nameOf(schema: z.ZodType): string | undefined {
    return this.names.get(schema);
  }

  convert(io: 'input' | 'output'): Record<string, JsonObject> {
    const { schemas } = z.toJSONSchema(this.registry, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      uri: (id) => `${SCHEMA_REF}${id}`,
      override: ({ zodSchema, jsonSchema }) => {
        // Strict in effect (its refinement rejects every other field), though written as a loose object.
        if (zodSchema === ReplyRequest) jsonSchema.additionalProperties = false;
        // `format` says it; zod's equivalent pattern is a long regular expression.
        if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
        // zod bounds every integer to the safe range; said on each field, that is only noise.
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        // Metadata the shared schemas carry themselves (the known values of an open enum).
        const own = z.globalRegistry.get(zodSchema);
        if (own?.description && jsonSchema.description === undefined)
          jsonSchema.description = own.description;
        if (own?.examples && jsonSchema.examples === undefined)
          jsonSchema.examples = own.examples as unknown[];
      },
    }) as { schemas: Record<string, JsonObject> };
    for (const schema of Object.values(schemas)) {
      delete schema['$schema'];
      delete schema['$id'];
    }
    return schemas;
  }
}

/** One parameter per property of a query object (zod input shape: a property with a default is optional). */
function queryParameters(query: z.ZodType): JsonObject[] {
  const schema = z.toJSONSchema(query, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    },
  }) as JsonObject;
  const properties = (schema['properties'] ?? {}) as Record<string, JsonObject>;
  const required = new Set((schema['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(PARAM_DESCRIPTIONS[name] ? { description: PARAM_DESCRIPTIONS[name] } : {}),
    schema: property,
  }));
}

function pathParameters(route: Operation): JsonObject[] {
  return pathParamNames(route.path).map((name) => {
    const description = route.pathParams?.[name]?.description;
    if (!description)
      throw new Error(`${routeKey(route.method, route.path)}: describe the path parameter ${name}`);
    return { name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } };
  });
}

const HEADERS = {
  RequestId: {
    description: 'The id of this request; the same as `meta.request_id` or `error.request_id`.',
    required: true,
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'string' } },
  IdempotentReplayed: {
    description: '`true` when this answer replays the first answer to the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};
const header = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const REQUEST_ID_HEADER = header('RequestId');

function successHeaders(route: Operation): JsonObject {
  return route.idempotent
    ? { 'x-request-id': REQUEST_ID_HEADER, 'idempotent-replayed': header('IdempotentReplayed') }
    : { 'x-request-id': REQUEST_ID_HEADER };
}

function securityOf(route: Operation): JsonObject[] {
  if (route.auth === 'none') return [];
  if (route.auth === 'v1') return [{ sessionToken: route.scopes }];
  return [{ bearerKey: route.scopes }, { sessionToken: [] }];
}

function scopeText(route: Operation): string {
  if (route.auth === 'none') return 'No credentials.';
  const { scopes, scopesWhenSent = [] } = route;
  const named = (list: readonly string[]) => list.map((scope) => `\`${scope}\``).join(', ');
  const needs = [
    scopes.length ? `Scopes: ${named(scopes)}.` : 'No scope.',
    ...scopesWhenSent.map(
      ({ field, scope }) => `Sending \`${field}\` also needs ${named([scope])} (a 403 naming it otherwise).`,
    ),
  ].join(' ');
  if (route.auth === 'v1') {
    return `${needs} A v1 session token in \`x-access-token\`, holding the scopes of the legacy key it was minted from.`;
  }
  return `${needs} A v1 session token (\`x-access-token\`) also works, holding the scopes of the legacy key it was minted from.`;
}

function errorResponses(route: Operation): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: JsonObject = { 'x-request-id': REQUEST_ID_HEADER };
    if (codes.some((code) => RETRY_AFTER_CODES.has(code))) {
      headers['Retry-After'] = header('RetryAfter');
    }
    responses[String(status)] = {
      description: codes
        .map((code) => (ERROR_MEANINGS[code] ? `\`${code}\`: ${ERROR_MEANINGS[code]}` : `\`${code}\``))
        .join('; '),
      headers,
      content: { 'application/json': { schema: ref('ErrorBody') } },
    };
  }
  return responses;
}

/** The document as served: every declared operation. */
export function buildDocument(): JsonObject {
  const responses = new ComponentSet(RESPONSE_COMPONENTS);
  const requests = new ComponentSet(REQUEST_COMPONENTS);
  const PageMeta = Meta.extend({ pagination: PaginationMeta });
  responses.add('PageMeta', PageMeta, 'The meta of a list: `pagination` is always there.');

  const nameOrFail = (set: ComponentSet, schema: z.ZodType, route: Operation, what: string) => {
    const name = set.nameOf(schema);
    if (!name)
      throw new Error(`${routeKey(route.method, route.path)}: name its ${what} schema in components.ts`);
    return name;
  };

  const paths: Record<string, Record<string, JsonObject>> = {};
  const envelopes = new Set<string>();
  for (const route of OPERATIONS) {
    const name = pascal(route.operationId);
    let success: JsonObject;
    if (route.data || route.page) {
      const data = (route.data ?? route.page)!;
      const dataName = nameOrFail(responses, data, route, 'data');
      const envelopeName = route.page ? `${dataName}Page` : `${dataName}Envelope`;
      // One envelope component per data shape, shared by every route that answers it.
      if (!envelopes.has(envelopeName)) {
        envelopes.add(envelopeName);
        const schema = route.page ? z.looseObject({ data: z.array(data), meta: PageMeta }) : envelope(data);
        responses.add(envelopeName, schema);
      }
      success = {
        description: route.page
          ? `A page of ${dataName} in the success envelope.`
          : `The ${dataName} in the success envelope.`,
        headers: successHeaders(route),
        content: { 'application/json': { schema: ref(envelopeName) } },
      };
    } else if (route.bare !== undefined) {
      success = {
        description:
          route.bare === null ? 'Done; no body.' : 'The answer (v1 answers are bare: no envelope).',
        headers: successHeaders(route),
        ...(route.bare === null
          ? {}
          : {
              content: {
                'application/json': {
                  schema: ref(responses.nameOf(route.bare) ?? responses.add(`${name}Response`, route.bare)),
                },
              },
            }),
      };
    } else {
      throw new Error(`${routeKey(route.method, route.path)}: give it data, page or bare`);
    }

    const parameters = [...pathParameters(route), ...(route.query ? queryParameters(route.query) : [])];
    if (route.idempotent) {
      parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    }
    const operation: JsonObject = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      description: [route.description, scopeText(route)].filter(Boolean).join('\n\n'),
      security: securityOf(route),
      ...(route.scopes.length ? { 'x-required-scopes': route.scopes } : {}),
      ...(parameters.length ? { parameters } : {}),
      responses: { '200': success, ...errorResponses(route) },
    };
    if (route.body) {
      const bodyName = requests.nameOf(route.body) ?? requests.add(`${name}Request`, route.body);
      operation['requestBody'] = {
        required: !route.bodyOptional,
        content: { 'application/json': { schema: ref(bodyName) } },
      };
    } else if (WRITE_METHODS.has(route.method)) {
      // The server reads nothing from the body of these writes, and does not refuse one (clients often send `{}`).
      operation['requestBody'] = {
        required: false,
        description: 'Nothing is read from the body: send none, or any JSON (it is ignored).',
        content: { 'application/json': { schema: {} } },
      };
    }
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation;
  }

  for (const [, name, schema, meaning] of EVENTS) responses.add(name, schema, meaning);
  const schemas = { ...responses.convert('output'), ...requests.convert('input') };
  const tags = [...new Set(OPERATIONS.map((route) => route.tag))].map((name) => ({ name }));
  const document: JsonObject = {
    openapi: '3.1.0',
    info: {
      title: 'Threadwork service (reference server)',
      version: '2.0.0',
      summary: 'v2, the legacy v1 interface and its token endpoint, as this server implements them.',
      description: INFO_DESCRIPTION,
    },
    servers: [{ url: '/', description: 'The origin this document was fetched from.' }],
    tags,
    security: [{ bearerKey: [] }, { sessionToken: [] }],
    paths,
    webhooks: webhooks(),
    components: {
      schemas,
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the write safe to retry: for 24 hours the same key (per credential) replays the first ' +
            'answer, status and `data`, with `idempotent-replayed: true` and a new `meta.request_id`, and ' +
            'does not run the write again. The same key with another method, path or body is a 409 ' +
            'idempotency_conflict; while the first request still runs, a 409 idempotency_in_progress with ' +
            '`Retry-After`. A 5xx answer is not kept, so a retry runs.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A v2 API key: `Authorization: Bearer <secret>`. Every key (v2 or legacy) holds the scopes chosen ' +
            `when it was created; one created without scopes holds every scope except the opt-in ones ` +
            `(${OPT_IN_SCOPES.join(', ')}), which are granted only by name. All scopes: ${SCOPES.join(', ')}.`,
        },
        sessionToken: {
          type: 'apiKey',
          in: 'header',
          name: 'x-access-token',
          description:
            'A v1 session token from POST /auth/api_token (20 minutes). v1 needs it; v2 accepts it too ' +
            '(legacy token auth). On both it holds the scopes of the legacy key it was minted from (`GET ' +
            '/v2/api-keys` lists them): a v1 operation needs the scopes its `x-required-scopes` names, those of ' +
            'the v2 operation it matches.',
        },
      },
    },
  };
  return document;
}

const DELIVERY_HEADERS: JsonObject[] = [
  {
    name: SIGNATURE_HEADER,
    in: 'header',
    required: true,
    description:
      '`t=<unix seconds>,v1=<hex>`: HMAC-SHA256 of `<t>.<raw body>` keyed with the subscription secret, one ' +
      '`v1=` per active secret (a rotated-out secret signs for 24 hours more). Verify over the raw body, in ' +
      'constant time, and reject a `t` outside your tolerance (300 s is usual).',
    schema: { type: 'string' },
  },
  {
    name: EVENT_ID_HEADER,
    in: 'header',
    required: true,
    description: 'The event’s id, the same on every retry and replay of it (in a v2 event, the body’s `id`).',
    schema: { type: 'string' },
  },
  {
    name: DELIVERY_ID_HEADER,
    in: 'header',
    required: true,
    description: 'The delivery id, which POST /v2/webhooks/deliveries/{id}/replay takes.',
    schema: { type: 'string' },
  },
];

const DELIVERY_ANSWERS = {
  '2XX': { description: 'Received. Answer quickly: the delivery times out after 15 s.' },
  '410': { description: 'Gone: the subscription is disabled (a v1 hook is deleted).' },
  default: {
    description:
      'Anything else, or no answer, is retried: immediately, after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and ' +
      '10 h (±10 %). Five days of nothing but failures disables the subscription.',
  },
};

/** What the service POSTs to webhook targets: each v2 event type, and the v1 hook body. */
function webhooks(): Record<string, JsonObject> {
  const hooks: Record<string, JsonObject> = {};
  for (const [type, name, , meaning] of EVENTS) {
    hooks[type] = {
      post: {
        operationId: `on${name}`,
        tags: ['Webhooks'],
        summary: type,
        description: `${meaning} Delivered to subscriptions whose \`events\` include \`${type}\`.`,
        parameters: DELIVERY_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: ref(name) } } },
        responses: DELIVERY_ANSWERS,
      },
    };
  }
  hooks['v1-hook'] = {
    post: {
      operationId: 'onV1Hook',
      tags: ['v1 (legacy)'],
      summary: 'A v1 hook',
      description:
        'What a v1 subscription receives for its action: the item, bare and unsigned, with ' +
        '`x-service-event-id` (unique per event, so two moves of one task are told apart).',
      parameters: [DELIVERY_HEADERS[1]!],
      requestBody: { required: true, content: { 'application/json': { schema: ref('V1Item') } } },
      responses: DELIVERY_ANSWERS,
    },
  };
  return hooks;
}

const INFO_DESCRIPTION = [
  'Generated at run time from the same zod schemas the server validates with.',
  '',
  '**Envelope.** A v2 success is `{ data, meta: { request_id, pagination? } }` with status 200 (creates ' +
    'included). v1 and the token endpoint answer bare JSON. Every error, v1 included, is ' +
    '`{ error: { code, message, request_id, details? } }`, and every answer carries `x-request-id`.',
  '',
  '**Errors.** 400 validation_error / invalid_json / invalid_request, 401 unauthenticated, 402 subscription_required, ' +
    '403 insufficient_scope, 404 not_found, 409 idempotency_conflict / idempotency_in_progress / ' +
    'mailbox_not_connected / mailbox_reauth_required, 413 payload_too_large (1 MiB), 415 ' +
    'unsupported_media_type, 500 internal_error, 503 service_unavailable (a request arriving while the ' +
    'server shuts down; `Retry-After`). This server applies no rate limit; a client should still ' +
    'honour 429 rate_limited with `Retry-After` from a service that does. A request that cannot be read as ' +
    'HTTP is answered before any route, still in the error body with code invalid_request: 400, or 408 (not ' +
    'received in time), 417 (an `Expect` other than 100-continue) or 431 (request line and headers over ' +
    '16 KiB).',
  '',
  '**Ids and visibility.** v1 and v2 share ids (a v1 item id is the v2 task id). An id in a path, query or ' +
    'body that does not exist or that the caller may not see is a 404 either way. Team resources (boards, ' +
    'lists, tasks, custom fields, contacts, companies) answer 402 when the team’s subscription is not paid; ' +
    '`GET /v2/teams` and `GET /v2/teams/{id}` are not gated.',
  '',
  '**Pagination.** Every v2 list takes `limit` (1–200, default 50) and `cursor` (opaque, from ' +
    '`meta.pagination.next_cursor`). v1 lists are whole.',
  '',
  '**Writes.** Every POST, PATCH and DELETE takes an optional `Idempotency-Key`. Bodies are JSON, at most ' +
    '1 MiB; unknown fields in a v2 body are a 400.',
].join('\n');
