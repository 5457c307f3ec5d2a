import zapier from 'zapier-platform-core';
import App from '../../src/index.ts';

export const ORIGIN = 'https://tw.example.test';

export const CREDENTIALS = {
  origin: ORIGIN,
  email: 'ada@example.com',
  api_key: 'k1a2b3c4',
  api_secret: 's5e6c7r8',
  api_key_name: 'Zapier',
} as const;

/** An unsigned JWT whose `exp` is `secondsLeft` from now: the app reads only `exp`. */
export function jwt(secondsLeft: number, label = 'token'): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'usr_ada', label, iat: now, exp: now + secondsLeft })}.c2ln`;
}

export const FRESH_TOKEN = jwt(20 * 60, 'connection');

/** authData of a connection whose session token is fresh. */
export function authData(sessionKey: string = FRESH_TOKEN) {
  return { ...CREDENTIALS, sessionKey };
}

/** An operation function, as appTester runs it. */
export type Operation = (...args: never[]) => unknown;

// biome-ignore lint/suspicious/noExplicitAny: an operation answers whatever its own type is; tests assert on it.
type Answer = any;

/** appTester, taking any operation function and a partial bundle. */
export const appTester = zapier.createAppTester(App) as unknown as (
  operation: Operation,
  bundle?: Record<string, unknown>,
) => Promise<Answer>;
export { App };

const authentication = App.authentication as unknown as Record<string, unknown> & {
  sessionConfig: { perform: Operation };
};
export const sessionPerform = authentication.sessionConfig.perform;
export const authTest = authentication['test'] as Operation;
export const connectionLabel = authentication['connectionLabel'] as Operation;

/** The message a Zapier `z.errors.Error` carries (its own message is JSON). */
export function zapierMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const parsed = JSON.parse(message) as { message?: string };
    return parsed.message ?? message;
  } catch {
    return message;
  }
}

/** Runs `promise`, expecting it to reject; returns the error. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}
