import type { Meta } from '../schemas/common.ts';

/**
 * The envelope's `meta` of each result, kept beside the data rather than in it: `getMeta(task).request_id`.
 * Weak keys, so a result that is dropped takes its meta with it.
 */
const metaByResult = new WeakMap<object, Meta>();

export function attachMeta<T>(result: T, meta: Meta): T {
  if (typeof result === 'object' && result !== null) metaByResult.set(result, meta);
  return result;
}

/** The meta (`request_id`, `pagination` for lists) of a value a v2 client method returned. */
export function getMeta(result: object): Meta | undefined {
  return metaByResult.get(result);
}
