/**
 * An unreachable service, as a Zap builder meets it: connecting the account (the token call, whose query
 * string carries the key pair) and running "Create Task" (the session token in a header). What Zapier shows,
 * and everything reachable from the error it is given, holds no credential, and still says what to check.
 */
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { operationOf } from './creates/support.ts';
import { appTester, jwt, rejection, sessionPerform, zapierMessage } from './helpers/auth.ts';

const CREDENTIALS = {
  email: 'ada@example.com',
  api_key: 'Kq7Rt2Vw9Xz4Lm8Np3Bc',
  api_secret: 'Sx6Jh1Df5Gk0Pa9Qe4Wr',
  api_key_name: 'Zapier',
};
const SESSION_TOKEN = jwt(20 * 60, 'Mv4Nc9Bx2Zl7Kj3Hg8Fd');

/** An origin on loopback where nothing listens: a port that was free a moment ago. */
async function closedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** Every string reachable from the error: own properties (hidden too), causes, and as Zapier prints it. */
function reachable(error: unknown): string {
  const strings: string[] = [String(error), inspect(error, { depth: null, showHidden: true })];
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      visit(descriptor && 'value' in descriptor ? descriptor.value : undefined);
    }
  };
  visit(error);
  if (error instanceof Error) strings.push(error.stack ?? '', JSON.stringify(error));
  return strings.join('\n');
}

function expectNoCredential(text: string): void {
  for (const secret of [CREDENTIALS.api_key, CREDENTIALS.api_secret, SESSION_TOKEN]) {
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(0, 10));
  }
}

describe('an unreachable service shows no credential', () => {
  it('when connecting the account (the token call)', async () => {
    const origin = await closedOrigin();
    const error = await rejection(appTester(sessionPerform, { authData: { origin, ...CREDENTIALS } }));
    const message = zapierMessage(error);
    // Said once, the origin once, in words (no socket code, no URL of the token call).
    expect(message).toBe(
      `Could not reach the service at ${origin}: the connection was refused. Check the Service URL: the address you open the service at, e.g. https://app.example.com.`,
    );
    expectNoCredential(reachable(error));
  });

  it('when running "Create Task" (the session token)', async () => {
    const origin = await closedOrigin();
    const error = await rejection(
      appTester(operationOf('creates', 'create_task').perform as never, {
        authData: { origin, ...CREDENTIALS, sessionKey: SESSION_TOKEN },
        inputData: { list_id: 'lst_1', title: 'Call Bob' },
      }),
    );
    expect(zapierMessage(error)).toBe(
      `Could not reach the service at ${origin}: the connection was refused. Check the connection's Service URL, or run the step again once the service is back.`,
    );
    expectNoCredential(reachable(error));
  });
});
