// Each route answers once: what its handler gives is sent in the declared shape, and a handler that sends
// its answer itself (a kept page of tasks, the OpenAPI document's text) is left to it, with nothing logged.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readBody, startTestServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
const logged: string[] = [];
beforeAll(async () => {
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
    logged.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  server = await startTestServer({ logger: 'warn' });
});
afterAll(async () => {
  await server.close();
  vi.restoreAllMocks();
});

describe('a route', () => {
  it('answers once, whether its handler or the declared shape sends the answer', async () => {
    for (let read = 0; read < 2; read++) {
      // The second read of the list is the kept page.
      const page = await server.v2('/tasks?list_id=lst_todo');
      expect(page.status).toBe(200);
      expect((await readBody(page)).meta.pagination).toMatchObject({ has_more: false });
    }
    const document = await fetch(`${server.origin}/v2/openapi.json`);
    expect((await readBody(document)).openapi).toBe('3.1.0');
    const me = await server.v2('/me');
    expect((await readBody(me)).data.user_id).toBe('usr_ada');
    // Warnings and errors are logged as JSON lines with a level of 40 or more.
    expect(logged.filter((line) => /"level":(40|50|60)/.test(line))).toEqual([]);
  });
});
