// A request that arrives while the server drains (SIGTERM: close) is answered 503 service_unavailable
// in the error envelope with Retry-After, while the request already in flight still finishes.
import { connect, type Socket } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/index.ts';
import { freshDatabase } from './helpers/database.ts';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { offlineResolver } from './helpers/server.ts';

const sockets: Socket[] = [];
afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

function open(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    sockets.push(socket);
    socket.on('error', reject);
  });
}

/** Everything the socket receives until the server closes it (bounded by the test's timeout). */
function received(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('close', () => resolve(text));
  });
}

it('answers 503 service_unavailable in the envelope with Retry-After while draining, and finishes what was in flight', async () => {
  const server: RunningServer = await startServer({
    port: 0,
    ...(await freshDatabase()),
    seed: fixtureSeed,
    resolveHost: offlineResolver,
    logger: false,
  });
  const host = new URL(server.origin).host;
  const auth = `authorization: Bearer ${SECRETS.adaFull}\r\n`;

  // In flight: a board creation whose body has not fully arrived yet.
  const body = JSON.stringify({ team_id: 'team_acme', name: 'Created while draining' });
  const inFlight = await open(server.origin);
  const inFlightAnswer = received(inFlight);
  inFlight.write(
    `POST /v2/boards HTTP/1.1\r\nhost: ${host}\r\n${auth}content-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  // A second connection has begun a request (so it is not idle) that completes after draining began.
  const late = await open(server.origin);
  const lateAnswer = received(late);
  late.write(`GET /v2/teams HTTP/1.1\r\nhost: ${host}\r\n`);
  await new Promise((resolve) => setTimeout(resolve, 50));

  const closed = server.close();
  await new Promise((resolve) => setTimeout(resolve, 50));
  late.write(`${auth}\r\n`);
  const refused = await lateAnswer;
  expect(refused).toMatch(/^HTTP\/1\.1 503 /);
  expect(refused.toLowerCase()).toContain('retry-after: 1\r\n');
  expect(refused.toLowerCase()).toMatch(/x-request-id: req_/);
  const envelope = JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4));
  expect(envelope).toEqual({
    error: {
      code: 'service_unavailable',
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_/),
    },
  });

  inFlight.write(body.slice(10));
  // It closes its connection once answered, so that the drain does not wait on keep-alive.
  const finished = await inFlightAnswer;
  expect(finished).toMatch(/^HTTP\/1\.1 200 /);
  expect(finished.toLowerCase()).toContain('connection: close\r\n');
  expect(finished).toContain('"Created while draining"');
  await closed;
});
