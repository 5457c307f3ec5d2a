import type { z } from 'zod';
import { formatPath, ServiceError } from '../domain/errors.ts';

export interface ValidationDetail {
  path: string;
  message: string;
}

/** One `{ path, message }` per problem; an unknown key is named in its path. */
export function validationDetails(error: z.ZodError): ValidationDetail[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: formatPath([...issue.path, key]), message: 'unknown field' }))
      : [{ path: formatPath(issue.path), message: issue.message }],
  );
}

/**
 * Parses a request part with a shared schema, or throws 400 validation_error listing every problem.
 * `where` names the part in the message (body, query, path).
 */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = validationDetails(result.error);
  const summary = details.map((detail) =>
    detail.path ? `${detail.path}: ${detail.message}` : detail.message,
  );
  throw new ServiceError('validation_error', `invalid ${where}: ${summary.join('; ')}`, details);
}
