import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RESOURCES } from '../src/client/v2/client.ts';
import { OPERATIONS, type Operation, pathParamNames, service } from '../src/operations/index.ts';

const key = (operation: Operation) => `${operation.method} ${operation.path}`;

describe('the declared operations', () => {
  it('are each a method of the v2 client, when they are v2 operations that need credentials', () => {
    const v2 = OPERATIONS.filter(
      (operation) => operation.path.startsWith('/v2/') && operation !== service.openApiDocument,
    );
    const offered = Object.values(RESOURCES).flatMap((group) => Object.values(group) as Operation[]);
    expect(offered.map(key).sort()).toEqual(v2.map(key).sort());
  });

  it('describe every path parameter, and answer one way', () => {
    for (const operation of OPERATIONS) {
      expect(Object.keys(operation.pathParams ?? {}), key(operation)).toEqual(pathParamNames(operation.path));
      const answers = [operation.data, operation.page, operation.bare].filter((kind) => kind !== undefined);
      expect(answers, key(operation)).toHaveLength(1);
    }
  });

  it('need a scope for a sent field only where the request can send that field', () => {
    const withFields = OPERATIONS.filter((operation) => operation.scopesWhenSent?.length);
    expect(withFields.map(key)).toEqual(
      expect.arrayContaining(['POST /v2/tasks', 'PATCH /v2/tasks/{id}', 'GET /v2/email-threads/{id}']),
    );
    for (const operation of withFields) {
      for (const { in: part, field } of operation.scopesWhenSent ?? []) {
        const schema = operation[part] as z.ZodObject | undefined;
        expect(Object.keys(schema?.shape ?? {}), `${key(operation)} ${part}`).toContain(field);
      }
    }
  });
});
