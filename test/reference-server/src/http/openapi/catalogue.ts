// The route catalogue: every route the service answers, with what the OpenAPI document says about it
// (scopes, parameters, bodies, answers, the error codes it can give). Each area's entries live beside its
// routes (`../v2/tasks.openapi.ts` beside `../v2/tasks.ts`); this file only gathers them, in the order the
// document lists them. The document is built from here and from the shared zod schemas, nothing else.
// `test/openapi.test.ts` holds it to the server in both directions: a served route missing here fails, an
// entry the server does not serve fails, and the scopes here must be the ones the route's guard checks.
import { AUTH_TOKEN_ROUTES } from '../auth-token.openapi.ts';
import { V1_BOARDS_ROUTES } from '../v1/boards.openapi.ts';
import { V1_ITEMS_ROUTES } from '../v1/items.openapi.ts';
import { V1_LISTS_ROUTES } from '../v1/lists.openapi.ts';
import { V1_SUBSCRIPTIONS_ROUTES } from '../v1/subscriptions.openapi.ts';
import { V1_TEAMS_ROUTES } from '../v1/teams.openapi.ts';
import { ANALYSIS_ROUTES } from '../v2/analysis.openapi.ts';
import { API_KEYS_ROUTES } from '../v2/api-keys.openapi.ts';
import { BOARDS_ROUTES } from '../v2/boards.openapi.ts';
import { CRM_ROUTES } from '../v2/crm.openapi.ts';
import { CUSTOM_FIELDS_ROUTES } from '../v2/custom-fields.openapi.ts';
import { DRAFTS_ROUTES } from '../v2/drafts.openapi.ts';
import { EMAIL_ROUTES } from '../v2/email.openapi.ts';
import { EMAIL_WRITES_ROUTES } from '../v2/email-writes.openapi.ts';
import { LISTS_ROUTES } from '../v2/lists.openapi.ts';
import { ME_ROUTES } from '../v2/me.openapi.ts';
import { TASKS_ROUTES } from '../v2/tasks.openapi.ts';
import { TEAMS_ROUTES } from '../v2/teams.openapi.ts';
import { WEBHOOKS_ROUTES } from '../v2/webhooks.openapi.ts';
import type { RouteEntry } from './entry.ts';
import { SERVICE_ROUTES } from './service.openapi.ts';

export type { Auth, Method, RouteEntry } from './entry.ts';

/** Add a new area's entries here, beside registering its routes in `app.ts`. */
export const ROUTES: readonly RouteEntry[] = [
  ...SERVICE_ROUTES,
  ...ME_ROUTES,
  ...TEAMS_ROUTES,
  ...BOARDS_ROUTES,
  ...LISTS_ROUTES,
  ...CUSTOM_FIELDS_ROUTES,
  ...TASKS_ROUTES,
  ...EMAIL_ROUTES,
  ...EMAIL_WRITES_ROUTES,
  ...DRAFTS_ROUTES,
  ...ANALYSIS_ROUTES,
  ...CRM_ROUTES,
  ...WEBHOOKS_ROUTES,
  ...API_KEYS_ROUTES,
  ...AUTH_TOKEN_ROUTES,
  ...V1_TEAMS_ROUTES,
  ...V1_BOARDS_ROUTES,
  ...V1_LISTS_ROUTES,
  ...V1_ITEMS_ROUTES,
  ...V1_SUBSCRIPTIONS_ROUTES,
];

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
