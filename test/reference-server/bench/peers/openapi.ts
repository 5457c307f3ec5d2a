/**
 * A small OpenAPI 3.1 document for the three benchmarked operations, built from the shared zod schemas, so
 * Prism (the mock-server peer) validates the same request shape and answers the same payloads.
 */
import { CreateTaskRequest, envelope, Me, Task } from '@threadwork/shared/schemas';
import { z } from 'zod';
import { BENCH_KEY, benchSeed, benchTask } from './fixtures.ts';

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' });

export function benchOpenApi() {
  const tasks = benchSeed().tasks.map(benchTask);
  const meta = { request_id: 'req_bench' };
  const me = { user_id: 'usr_bench', email: 'bench@example.com', display_name: 'Bench', key: null };
  const bearer = [{ bearer: [] }];
  const json = (schema: z.ZodType, example: unknown) => ({
    'application/json': { schema: jsonSchema(schema), example },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Threadwork v2 (benchmark subset)', version: '2.0.0', description: `key ${BENCH_KEY}` },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    paths: {
      // Full paths: Prism matches requests against paths alone, ignoring a server's base path.
      '/v2/me': {
        get: {
          security: bearer,
          responses: { '200': { description: 'Me', content: json(envelope(Me), { data: me, meta }) } },
        },
      },
      '/v2/tasks': {
        get: {
          security: bearer,
          parameters: [{ name: 'list_id', in: 'query', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'Tasks',
              content: json(envelope(z.array(Task)), {
                data: tasks,
                meta: { ...meta, pagination: { next_cursor: null, has_more: false, limit: 50 } },
              }),
            },
          },
        },
        post: {
          security: bearer,
          parameters: [
            { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(CreateTaskRequest) } },
          },
          responses: {
            '200': { description: 'Task', content: json(envelope(Task), { data: tasks[0], meta }) },
          },
        },
      },
    },
  };
}
