/**
 * Where the background keeps its state. Credentials live in `storage.local` (they survive restarts), the
 * session token in `storage.session` (memory only, gone with the browser session), and the last team, board
 * and list of a successful create in `storage.local`. Only the background reads or writes these items.
 */
import { storage } from 'wxt/utils/storage';
import type { Choice, SettingsInput, SettingsView } from './protocol.ts';

export interface Credentials {
  /** The service origin, without a trailing slash: v2 is `{origin}/v2`, the token endpoint `{origin}/auth/api_token`. */
  origin: string;
  email: string;
  apiKey: string;
  apiSecret: string;
  keyName: string;
}

export interface SessionToken {
  token: string;
  /** Epoch ms after which the token is not used any more. */
  renewAt: number;
  /** Which credentials the token was exchanged for: a change of credentials drops it. */
  fingerprint: string;
}

export const credentialsItem = storage.defineItem<Credentials | null>('local:credentials', {
  fallback: null,
});
export const sessionTokenItem = storage.defineItem<SessionToken | null>('session:token', { fallback: null });
export const choiceItem = storage.defineItem<Choice | null>('local:lastChoice', { fallback: null });

export function normalizeOrigin(value: string): string {
  return new URL(value.trim()).origin;
}

/** The match pattern of the service's origin, as `permissions.contains/request` take it. */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}

export function fingerprint(credentials: Credentials): string {
  return (
    JSON.stringify([credentials.origin, credentials.email, credentials.apiKey, credentials.keyName]) +
    `:${credentials.apiSecret.length}:${credentials.apiSecret.slice(-4)}`
  );
}

export function isComplete(credentials: Credentials | null): credentials is Credentials {
  return (
    credentials !== null &&
    credentials.origin !== '' &&
    credentials.email !== '' &&
    credentials.apiKey !== '' &&
    credentials.apiSecret !== '' &&
    credentials.keyName !== ''
  );
}

export function toView(credentials: Credentials | null): SettingsView {
  return {
    origin: credentials?.origin ?? '',
    email: credentials?.email ?? '',
    apiKey: credentials?.apiKey ?? '',
    keyName: credentials?.keyName ?? '',
    hasSecret: (credentials?.apiSecret ?? '') !== '',
    configured: isComplete(credentials),
  };
}

/** The credentials a form names; an empty secret means the stored one. */
export function credentialsFromInput(input: SettingsInput, previous: Credentials | null): Credentials {
  return {
    origin: normalizeOrigin(input.origin),
    email: input.email.trim(),
    apiKey: input.apiKey.trim(),
    apiSecret: input.apiSecret !== '' ? input.apiSecret : (previous?.apiSecret ?? ''),
    keyName: input.keyName.trim(),
  };
}

/** Saves the form; an empty secret keeps the stored one. A change of credentials drops the session token. */
export async function saveCredentials(input: SettingsInput): Promise<Credentials> {
  const next = credentialsFromInput(input, await credentialsItem.getValue());
  await credentialsItem.setValue(next);
  await sessionTokenItem.setValue(null);
  return next;
}
