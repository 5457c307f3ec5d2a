// Where the console answers, and how this server reaches itself: what the console's routes (routes.ts)
// and its API (api.ts) both need, in a module of its own so that neither imports the other.
import type { FastifyInstance } from 'fastify';
import { isLoopbackHost, SELF_RECEIVER_PATH } from '../domain/webhook-targets.ts';

export const CONSOLE_API_PREFIX = '/_console/api/';
/** The console's test receiver: the one webhook target allowed on this server (receiver.ts). */
export const CONSOLE_RECEIVER_PATH = SELF_RECEIVER_PATH;

/**
 * This server's origin as a client on this machine reaches it: its own address when that is loopback,
 * loopback's when it listens on every address (`--host 0.0.0.0` or `::`); null when it listens on
 * another address only, where no loopback client (and so no console page) can reach it.
 */
export function loopbackOrigin(app: FastifyInstance): string | null {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return null;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  if (!wildcard && !isLoopbackHost(address.address)) return null;
  const ipv6 = address.family === 'IPv6';
  const ip = wildcard ? (ipv6 ? '::1' : '127.0.0.1') : address.address;
  return `http://${ipv6 ? `[${ip}]` : ip}:${address.port}`;
}

/** The receiver's URL as the delivery worker reaches it: this server's own listening address. */
export function receiverUrl(app: FastifyInstance): string {
  return `${loopbackOrigin(app) ?? 'http://127.0.0.1'}${CONSOLE_RECEIVER_PATH}`;
}
