import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../src/index.ts';
import { SECRETS } from './helpers/fixtures.ts';
import { readBody, startTestServer, type TestServer } from './helpers/server.ts';

let clock = new Date('2026-02-01T12:00:00.000Z');
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => clock });
});
afterAll(() => server.close());

const createBoard = (key: string, name: string, secret: string = SECRETS.adaFull) =>
  server.v2('/boards', {
    method: 'POST',
    key: secret,
    headers: { 'idempotency-key': key },
    body: { team_id: 'team_acme', name },
  });

async function boardNames(): Promise<string[]> {
  const body = await readBody(await server.v2('/boards?team_id=team_acme&limit=200'));
  return body.data.map((board: { name: string }) => board.name);
}

describe('Idempotency-Key', () => {
  it('replays the first answer without repeating the action', async () => {
    const first = await createBoard('replay-1', 'Replayed');
    const second = await createBoard('replay-1', 'Replayed');
    expect(second.status).toBe(first.status);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const [a, b] = [await readBody(first), await readBody(second)];
    expect(b.data).toEqual(a.data);
    expect(b.meta.request_id).toBe(second.headers.get('x-request-id'));
    expect((await boardNames()).filter((name) => name === 'Replayed')).toHaveLength(1);
  });

  it('replays 4xx answers too', async () => {
    const first = await server.v2('/boards', {
      method: 'POST',
      headers: { 'idempotency-key': 'bad-1' },
      body: {},
    });
    const second = await server.v2('/boards', {
      method: 'POST',
      headers: { 'idempotency-key': 'bad-1' },
      body: {},
    });
    expect([first.status, second.status]).toEqual([400, 400]);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await readBody(second)).error.details).toEqual((await readBody(first)).error.details);
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    expect((await createBoard('conflict-1', 'One')).status).toBe(200);
    const other = await createBoard('conflict-1', 'Two');
    expect(other.status).toBe(409);
    expect((await readBody(other)).error.code).toBe('idempotency_conflict');
  });

  it("answers idempotency_conflict, not the new body's own error, for a used key with an invalid body", async () => {
    expect((await createBoard('conflict-2', 'Valid')).status).toBe(200);
    const invalid = await server.v2('/boards', {
      method: 'POST',
      headers: { 'idempotency-key': 'conflict-2' },
      body: { name: 42 },
    });
    expect(invalid.status).toBe(409);
    expect((await readBody(invalid)).error.code).toBe('idempotency_conflict');
  });

  it('replays an error the change itself ran into, changing nothing', async () => {
    const create = () =>
      server.v2('/tasks', {
        method: 'POST',
        headers: { 'idempotency-key': 'unknown-list' },
        body: { list_id: 'lst_nowhere', title: 'Nowhere' },
      });
    const first = await create();
    const second = await create();
    expect([first.status, second.status]).toEqual([404, 404]);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await readBody(second)).error.message).toBe((await readBody(first)).error.message);
  });

  it('scopes keys to the credential', async () => {
    const ada = await createBoard('shared-key', 'Ada board');
    const otherKey = await createBoard('shared-key', 'Ada board', SECRETS.adaBoardsRead);
    expect(ada.status).toBe(200);
    // A different credential does not see ada's key: it runs (and here lacks boards.write).
    expect(otherKey.status).toBe(403);
    expect(otherKey.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets keys after 24 hours', async () => {
    const start = clock;
    try {
      const first = await readBody(await createBoard('expiring', 'Expiring'));
      clock = new Date(start.getTime() + IDEMPOTENCY_TTL_MS + 1000);
      const again = await createBoard('expiring', 'Expiring');
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect((await readBody(again)).data.id).not.toBe(first.data.id);
    } finally {
      clock = start;
    }
  });

  it('creates exactly one board for 50 concurrent identical requests', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => createBoard('burst-1', 'Burst')));
    const statuses = responses.map((response) => response.status);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await readBody(response)).error.code).toBe('idempotency_in_progress');
      expect(response.headers.get('retry-after')).toBe('1');
    }
    const ids = new Set<string>();
    for (const response of responses.filter((r) => r.status === 200))
      ids.add((await readBody(response)).data.id);
    expect(ids.size).toBe(1);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect((await boardNames()).filter((name) => name === 'Burst')).toHaveLength(1);
  });

  it('releases the keys of requests whose client hung up', async () => {
    const { hostname, port } = new URL(server.origin);
    // Hanging up a few event-loop turns later each time lands before, during and after the handler.
    for (let turns = 0; turns < 8; turns++) {
      const key = `hung-up-${turns}`;
      const name = `Hung up ${turns}`;
      const body = JSON.stringify({ team_id: 'team_acme', name });
      const socket = connect(Number(port), hostname);
      await new Promise<void>((done) => socket.once('connect', done));
      socket.write(
        [
          'POST /v2/boards HTTP/1.1',
          `host: ${hostname}`,
          `authorization: Bearer ${SECRETS.adaFull}`,
          `idempotency-key: ${key}`,
          'content-type: application/json',
          `content-length: ${Buffer.byteLength(body)}`,
          '',
          body,
        ].join('\r\n'),
      );
      for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
      socket.destroy();
      let retry = await createBoard(key, name);
      for (let attempt = 0; retry.status === 409 && attempt < 50; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        retry = await createBoard(key, name);
      }
      expect(retry.status).toBe(200);
      expect((await boardNames()).filter((board) => board === name)).toHaveLength(1);
    }
  });
});
