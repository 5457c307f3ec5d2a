// @vitest-environment node
/**
 * An unreachable service, as a mailbox user meets it: the background answers the failure the panel and the
 * options page show (through the real message protocol and the error area). What the user sees, and the
 * whole answer that crosses to the page, holds no credential, and still says what to check. The background
 * runs on Node's fetch (happy-dom's would refuse the cross-origin call before it reached the socket); the
 * error area renders into a happy-dom document.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { Window } from 'happy-dom';
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ErrorArea } from '../components/ErrorArea.tsx';
import { createService } from '../lib/background/service.ts';
import { createSend } from '../lib/messaging.ts';
import { sessionTokenItem } from '../lib/settings.ts';

const SETTINGS = {
  email: 'ada@example.com',
  apiKey: 'Kq7Rt2Vw9Xz4Lm8Np3Bc',
  apiSecret: 'Sx6Jh1Df5Gk0Pa9Qe4Wr',
  keyName: 'Browser',
};
const TOKEN = [
  'eyJhbGciOiJIUzI1NiJ9',
  Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url'),
  'Mv4Nc9Bx2Zl7Kj3Hg8Fd1Sa6',
].join('.');
const SECRETS = [SETTINGS.apiKey, SETTINGS.apiSecret, TOKEN];

/** A loopback port where nothing listens: it was free a moment ago. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The background, on the global fetch, with the settings saved for `origin`. */
async function background(origin: string, fetch: typeof globalThis.fetch = globalThis.fetch) {
  const service = createService({
    fetch,
    hasHostPermission: async () => true,
    openTab: async () => {},
    openOptions: async () => {},
  });
  await service.handle({ type: 'settings.save', settings: { origin, ...SETTINGS } });
  return service;
}

/** What the user sees: the error area rendered from the failure `send` rejects with. */
async function shown(service: Awaited<ReturnType<typeof background>>): Promise<string> {
  const send = createSend({ sendMessage: (message) => service.handle(message) });
  const error = await send({ type: 'me.get' }).then(
    () => expect.fail('the call should fail'),
    (caught: unknown) => caught,
  );
  const root = new Window().document.createElement('div') as unknown as HTMLElement;
  render(<ErrorArea error={error} testId="threadwork-error" />, root);
  expect(root.querySelector('[data-testid="threadwork-error"]')?.getAttribute('data-kind')).toBe(
    'unreachable',
  );
  return root.textContent ?? '';
}

function expectNoCredential(text: string): void {
  for (const secret of SECRETS) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(-10));
  }
}

beforeEach(() => {
  fakeBrowser.reset();
});

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe('an unreachable service shows no credential', () => {
  it('when the token call is refused (the key pair is in its query string)', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const service = await background(origin);
    const answer = await service.handle({ type: 'me.get' });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    expectNoCredential(JSON.stringify(answer));
    // The message that crosses to the page still names the call that failed, and why.
    expect(!answer.ok && answer.error.message).toContain('/auth/api_token failed: connect ECONNREFUSED');

    const text = await shown(service);
    expect(text).toContain('Check your connection or the service URL');
    expect(text).toContain(`${new URL(origin).host} failed: connect ECONNREFUSED`);
    expectNoCredential(text);
  });

  it('when the service goes away after the token call (the session token is in a header)', async () => {
    const server = createHttpServer((request, response) => {
      // Answers the token call, then resets every other connection, echoing nothing.
      if (request.url?.startsWith('/auth/api_token')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ 'x-access-token': TOKEN }));
      } else request.socket.resetAndDestroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const { port } = server.address() as { port: number };
    const service = await background(`http://127.0.0.1:${port}`);
    const answer = await service.handle({ type: 'me.get' });
    expect(answer).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    expect((await sessionTokenItem.getValue())?.token).toBe(TOKEN);
    expectNoCredential(JSON.stringify(answer));
    expectNoCredential(await shown(service));
  });
});
