// The console's API (`/_console/api/…`, docs/console.md) called as its own page calls it: with the page's
// token sent back in `x-console-token` whenever the page the server serves carries one.

/** The console page's token (`<meta name="console-token">`), when the page carries one. */
export async function consoleToken(server: { origin: string }): Promise<string | undefined> {
  const page = await fetch(`${server.origin}/`, { headers: { accept: 'text/html' } });
  return /<meta name="console-token" content="([^"]+)">/.exec(await page.text())?.[1];
}

/** A request to the console's API as its page makes one (with the page's token, if any). */
export async function consoleApi(
  server: { origin: string },
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const token = await consoleToken(server);
  return fetch(`${server.origin}/_console/api/${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { 'x-console-token': token }),
      ...init.headers,
    },
  });
}
