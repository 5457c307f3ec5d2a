import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody, startTestServer, type TestServer } from './helpers/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  const body = await readBody(response);
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
  return body.error;
}

describe('error envelope', () => {
  it('answers 400 invalid_json for a malformed body', async () => {
    await expectError(await server.v2('/boards', { method: 'POST', body: '{"name": ' }), 400, 'invalid_json');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await server.v2('/boards', {
      method: 'POST',
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await expectError(response, 415, 'unsupported_media_type');
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const body = JSON.stringify({ team_id: 'team_acme', name: 'x'.repeat(1024 * 1024) });
    await expectError(await server.v2('/boards', { method: 'POST', body }), 413, 'payload_too_large');
  });

  it('lists every validation problem with its path', async () => {
    const error = await expectError(
      await server.v2('/boards', { method: 'POST', body: { name: '', colour: 'red' } }),
      400,
      'validation_error',
    );
    const paths = (error.details as { path: string }[]).map((detail) => detail.path).sort();
    expect(paths).toEqual(['colour', 'name', 'team_id']);
  });

  it('answers 404 not_found for an unknown route', async () => {
    await expectError(await server.v2('/nothing-here'), 404, 'not_found');
  });

  it('answers 400 validation_error for a cursor it did not issue', async () => {
    const error = await expectError(await server.v2('/teams?cursor=bogus'), 400, 'validation_error');
    expect(error.details).toEqual([{ path: 'cursor', message: 'not a cursor this server issued' }]);
  });
});
