/**
 * The shared package's clients and schemas (with zod and ky) load when a step first needs them, not when
 * Zapier loads the app: building every schema at import is most of what loading the app costs beyond
 * zapier-platform-core (docs/zapier-app.md, "Load time"). So the app imports values from
 * `@threadwork/shared` and `/webhooks` only in `shared-runtime.ts`, loaded through here; errors, value lists,
 * token expiry and header names come from `@threadwork/shared/light`, which loads neither zod nor ky. Types
 * may be imported from anywhere.
 */
export const loadShared = () => import('./shared-runtime.ts');
