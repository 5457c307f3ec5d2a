// The v2 client's resources, made from the declared operations as stripe-node makes its resources from
// method specs: each key of a group (`tasks.create`) becomes a method of the resource (`client.tasks.create`),
// typed from the operation's zod schemas: its path's ids first, then its body or query, then the options.
import type { z } from 'zod';
import type { Operation } from '../../operations/operation.ts';
import { pathParamNames } from '../../operations/operation.ts';
import { envelope } from '../../schemas/common.ts';
import type { PagePromise } from '../pagination.ts';
import {
  type ListParams,
  parseQuery,
  parseRequest,
  pathId,
  type QueryInput,
  type RequestOptions,
  withQuery,
} from '../request.ts';
import type { EnvelopeSchema, V2Transport } from './transport.ts';

/** One string per `{param}` of the path. */
type PathArgs<Path extends string> = Path extends `${string}{${string}}${infer Rest}`
  ? [id: string, ...PathArgs<Rest>]
  : [];

/** A list's query as a caller passes it (its output, `limit` optional); any other query, its input. */
type QueryArg<O, Q extends z.ZodType> = O extends { page: z.ZodType }
  ? z.output<Q> extends infer Output extends { limit: number }
    ? ListParams<Output>
    : z.output<Q>
  : z.input<Q>;

/** The body, or the query (left out when every parameter is optional). */
type InputArgs<O> = O extends { body: infer B extends z.ZodType }
  ? [body: z.input<B>]
  : O extends { query: infer Q extends z.ZodType }
    ? Record<never, never> extends QueryArg<O, Q>
      ? [query?: QueryArg<O, Q>]
      : [query: QueryArg<O, Q>]
    : [];

type ResultOf<O> = O extends { page: infer T extends z.ZodType }
  ? PagePromise<z.output<T>>
  : O extends { data: infer T extends z.ZodType }
    ? Promise<z.output<T>>
    : never;

/** The client method of one v2 operation. */
export type ClientMethod<O extends Operation> = (
  ...args: [...PathArgs<O['path']>, ...InputArgs<O>, options?: RequestOptions]
) => ResultOf<O>;

/** A group of v2 operations as the client offers them. */
export type Resource<G extends Record<string, Operation>> = { readonly [K in keyof G]: ClientMethod<G[K]> };

const V2_ROOT = '/v2';

/** A class whose instances call the group's operations over one transport (its methods on its prototype). */
export function resource<G extends Record<string, Operation>>(
  group: G,
): new (
  transport: V2Transport,
) => Resource<G> {
  class GroupResource {
    readonly transport: V2Transport;
    constructor(transport: V2Transport) {
      this.transport = transport;
    }
  }
  for (const [name, operation] of Object.entries(group)) {
    Object.defineProperty(GroupResource.prototype, name, {
      value: clientMethod(operation),
      writable: true,
      configurable: true,
    });
  }
  return GroupResource as unknown as new (
    transport: V2Transport,
  ) => Resource<G>;
}

function clientMethod(operation: Operation) {
  const { query, body, page, data, pathParams } = operation;
  if (!operation.path.startsWith(`${V2_ROOT}/`))
    throw new Error(`${operation.operationId} is not a v2 operation`);
  const path = operation.path.slice(V2_ROOT.length);
  const names = pathParamNames(path);
  const takesInput = body !== undefined || query !== undefined;
  // Built on the first call: a client that never calls an operation never builds its schema.
  let answer: EnvelopeSchema<unknown> | undefined;
  const answerSchema = <T>() => {
    answer ??= envelope(page ? page.array() : data!) as EnvelopeSchema<unknown>;
    return answer as EnvelopeSchema<T>;
  };
  /** The path with each id in place, checked and escaped. */
  const pathWith = (ids: unknown[]) =>
    names.reduce(
      (filled, name, index) =>
        filled.replace(`{${name}}`, pathId(ids[index] as string, pathParams?.[name]?.name ?? name)),
      path,
    );

  return function (this: { transport: V2Transport }, ...args: unknown[]) {
    const ids = args.slice(0, names.length);
    const input = takesInput ? args[names.length] : undefined;
    const options = args[names.length + (takesInput ? 1 : 0)] as RequestOptions | undefined;
    const queryOf = () => (query ? parseQuery(query, input as QueryInput | undefined) : {});
    if (page) {
      // A bad input rejects the page promise rather than throwing.
      return this.transport.list(
        () => ({ path: pathWith(ids), query: queryOf() }),
        answerSchema<unknown[]>(),
        options,
      );
    }
    return (async () => {
      const target = withQuery(pathWith(ids), queryOf());
      const payload = body ? parseRequest(body, input) : undefined;
      return this.transport.request(operation, target, answerSchema(), payload, options);
    })();
  };
}
