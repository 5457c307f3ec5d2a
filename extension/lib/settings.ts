/**
 * Where the background keeps its state. Credentials live in `storage.local` (they survive restarts), the
 * session token and the panel's drafts in `storage.session` (memory only, gone with the browser session), and
 * the last team, board and list of a successful create in `storage.local`. Only the background reads or
 * writes these items (Firefox gives the panel's frame no `storage.session` at all).
 */
import { storage } from 'wxt/utils/storage';
import type { Choice, Draft, SettingsInput, SettingsView } from './protocol.ts';
import { serviceOrigin } from './service-url.ts';

export interface Credentials {
  /** The service origin, without a trailing slash: v2 is `{origin}/v2`, the token endpoint `{origin}/auth/api_token`. */
  origin: string;
  email: string;
  apiKey: string;
  apiSecret: string;
  keyName: string;
  /** Set when the key was revoked from the API tab (its secret forgotten); cleared by the next save. */
  signedOut?: boolean;
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
/** The panel's drafts by thread id: memory only, like the session token (they may hold an email's text). */
export const draftsItem = storage.defineItem<Record<string, Draft>>('session:drafts', { fallback: {} });

/** The origin of a service URL the settings schema accepted. */
export function normalizeOrigin(value: string): string {
  const origin = serviceOrigin(value);
  if (origin === null) throw new Error(`not a service URL: ${value}`);
  return origin;
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
    signedOut: credentials?.signedOut === true && !isComplete(credentials),
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
