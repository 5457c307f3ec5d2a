// Where a webhook may be sent. One rule, applied when a v2 subscription or a v1 hook is created or
// its URL changed, and again on every delivery attempt (a name can resolve elsewhere by then: DNS
// rebinding), which then connects to exactly the addresses that were checked. See docs/webhooks.md.
//
// - https only; `--allow-insecure-webhooks` adds http, and only to loopback hosts.
// - The host, and every address its name resolves to, must be public unicast. Loopback, private,
//   link-local, carrier-grade NAT, unique-local, multicast, unspecified, reserved and documentation
//   ranges are refused (ipaddr.js names them; anything it does not call `unicast` is refused), IPv4
//   inside IPv6 (mapped, compatible, NAT64, 6to4, Teredo) included.
// - `--allow-insecure-webhooks` lets loopback through: 127.0.0.0/8, `localhost`, [::1]. Private ranges
//   stay refused even then.
// - Never this server itself: a loopback target at a port this server listens on (the scheme's default
//   port when the URL names none) is refused even with the flag, except the console's test receiver,
//   which only records and verifies what it is sent. A delivery that reached any other route of ours
//   would act as the service, and one that reached the route sending a test event would loop.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalidField } from './errors.ts';

/** Resolves a host name to its addresses (IPv4 and IPv6, as text). Injectable: tests resolve offline. */
export type HostResolver = (hostname: string) => Promise<readonly string[]>;

/** The operating system's resolver (hosts file, then DNS), every address of the name. */
export const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
};

export interface WebhookTargetOptions {
  /** `--allow-insecure-webhooks`: http, and loopback hosts, for local tests. */
  allowInsecureWebhooks: boolean;
  /** The ports this server listens on (filled in once it listens): loopback there is the service itself. */
  listeningPorts: ReadonlySet<number>;
}

/** The one path on this server a webhook may target: the console's test receiver (docs/webhooks.md). */
export const SELF_RECEIVER_PATH = '/_console/receiver';

export interface WebhookTargetPolicy extends WebhookTargetOptions {
  resolveHost: HostResolver;
}

/** A target the rule refuses; its message is shown to the user as the field's message. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

/** How long a check at creation waits for the resolver before it lets the delivery check decide. */
const CREATE_RESOLVE_TIMEOUT_MS = 5000;

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

/** The range ipaddr.js places an address in, with IPv4 carried inside IPv6 judged as that IPv4. */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (address.kind() === 'ipv4') return address.range();
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range();
  const range = v6.range();
  if (range !== 'unicast') return range;
  const parts = v6.parts;
  // ::a.b.c.d (IPv4-compatible, deprecated): ipaddr.js calls it unicast, yet it only ever names IPv4.
  if (parts.slice(0, 6).every((part) => part === 0)) return 'reserved';
  // Only 2000::/3 is global unicast; the rest of the space is unassigned or special.
  if ((parts[0]! & 0xe000) !== 0x2000) return 'reserved';
  return range;
}

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a unique-local address',
  reserved: 'a reserved or documentation address',
};

/**
 * What `address` is when it may not be a webhook's destination ("a private address"), or null if it
 * may. Loopback passes only when `allowLoopback` (the insecure-webhooks flag).
 */
export function refusedRange(address: string, allowLoopback: boolean): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  const range = rangeOf(parsed);
  if (range === 'unicast') return null;
  if (range === 'loopback' && allowLoopback) return null;
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

/** The host of a URL as an address when it is one (brackets of IPv6 removed), else null. */
function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

function isLoopbackName(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

/** 127.0.0.0/8, localhost and [::1] (and ::ffff:127.x.y.z): the hosts the insecure flag opens. */
export function isLoopbackHost(hostname: string): boolean {
  if (isLoopbackName(hostname)) return true;
  const address = literalAddress(hostname);
  return address !== null && rangeOf(ipaddr.parse(address)) === 'loopback';
}

/**
 * The part of the rule that needs no resolver: the scheme, and the host when it is an address (the URL
 * parser has already turned decimal, hex and octal IPv4 spellings into dotted form) or `localhost`.
 * Answers the parsed URL; throws TargetRefused.
 */
export function checkTargetSyntax(url: string, options: WebhookTargetOptions): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused('must be an absolute https URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new TargetRefused('must be an https URL');
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TargetRefused('must not carry a user name or password');
  }
  const insecure = options.allowInsecureWebhooks;
  const loopback = isLoopbackHost(parsed.hostname);
  if (parsed.protocol === 'http:' && !(insecure && loopback)) {
    throw new TargetRefused(
      insecure
        ? 'must be an https URL; http is accepted only for loopback hosts (127.0.0.0/8, localhost, [::1])'
        : 'must be an https URL (http is accepted only for loopback hosts with --allow-insecure-webhooks)',
    );
  }
  if (isLoopbackName(parsed.hostname) && !insecure) {
    throw new TargetRefused(
      `must not point at this machine: ${parsed.hostname} is a loopback host (accepted only with --allow-insecure-webhooks)`,
    );
  }
  const address = literalAddress(parsed.hostname);
  if (address !== null) {
    const range = refusedRange(address, insecure);
    if (range !== null) {
      throw new TargetRefused(`must not point at a private or internal address: ${address} is ${range}`);
    }
  }
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  if (loopback && options.listeningPorts.has(port) && parsed.pathname !== SELF_RECEIVER_PATH) {
    throw new TargetRefused(
      `must not point at this server itself: ${parsed.hostname} port ${port} is where this server listens, and a delivery there would call the service's own routes`,
    );
  }
  return parsed;
}

/**
 * The addresses a delivery to `url` may connect to, all checked; throws TargetRefused if the host is
 * refused or any of its addresses is (one bad address is enough: the connection could land on it).
 * A resolver failure is thrown as it is.
 */
export async function resolveTarget(url: string, policy: WebhookTargetPolicy): Promise<string[]> {
  const parsed = checkTargetSyntax(url, policy);
  const address = literalAddress(parsed.hostname);
  if (address !== null) return [address];
  const addresses = await policy.resolveHost(parsed.hostname);
  if (addresses.length === 0) throw new Error(`${parsed.hostname} has no address`);
  // `localhost` must really be this machine; any other name must not be, even with the flag.
  const allowLoopback = policy.allowInsecureWebhooks && isLoopbackName(parsed.hostname);
  for (const candidate of addresses) {
    const range = refusedRange(candidate, allowLoopback);
    if (range !== null) {
      throw new TargetRefused(
        `must not point at a private or internal address: ${parsed.hostname} resolves to ${candidate}, ${range}`,
      );
    }
  }
  return [...addresses];
}

/**
 * The check at creation and update: answers nothing, or throws 400 validation_error on `path`. A name
 * that does not resolve (yet) is accepted: it refers to nothing inside, and every delivery checks again.
 */
export async function checkWebhookTarget(
  url: string,
  policy: WebhookTargetPolicy,
  path: string,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), CREATE_RESOLVE_TIMEOUT_MS);
  });
  const checked = resolveTarget(url, policy).then(
    () => null,
    (error: unknown) => error,
  );
  const error = await Promise.race([checked, gaveUp]);
  clearTimeout(timer);
  if (error instanceof TargetRefused) throw invalidField(path, error.message);
}

/** The synchronous part as the domain's validation error (the domain cannot wait on a resolver). */
export function checkTargetUrl(url: string, options: WebhookTargetOptions, path: string): void {
  try {
    checkTargetSyntax(url, options);
  } catch (error) {
    if (error instanceof TargetRefused) throw invalidField(path, error.message);
    throw error;
  }
}
