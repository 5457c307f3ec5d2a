/**
 * The service URL as a user types it, read the one way the settings form and the background both use: an
 * address with or without its scheme (`app.example.com` is `https://app.example.com`; a loopback host
 * without a scheme is `http://`), reduced to its origin. No dependencies: the settings form shows the same
 * message the background would give, before anything is sent.
 */
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?(\/|$)/i;

/** The origin the input names, or null when it names no http(s) address. */
export function serviceOrigin(input: string): string | null {
  const text = input.trim();
  if (text === '') return null;
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(text)
    ? text
    : `${LOOPBACK.test(text) ? 'http' : 'https'}://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hostname === '') return null;
  // A host is a name with a dot, or a loopback name: "app" alone is a typo more often than a host.
  if (!url.hostname.includes('.') && !LOOPBACK.test(url.host) && !url.hostname.startsWith('[')) return null;
  return url.origin;
}

/** What the settings form says of a service URL it cannot read. */
export const SERVICE_URL_HELP = 'Enter the address you open the service at, such as https://app.example.com.';

/** The match pattern of the service's origin, as `permissions.contains/request` take it. */
export function originPattern(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}
