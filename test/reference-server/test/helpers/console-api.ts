// The console's API (`/_console/api/…`, docs/console.md) called as its own page calls it: with the page's
// token sent back in `x-console-token` whenever the page the server serves carries one.
import { type Answer, readAnswer } from './server.ts';

const tokens = new Map<string, Promise<string | undefined>>();

/** The token the console's page carries (`<meta name="console-token">`), read once per server. */
function pageToken(origin: string): Promise<string | undefined> {
  let token = tokens.get(origin);
  if (token === undefined) {
    token = fetch(`${origin}/`, { headers: { accept: 'text/html' } })
      .then((page) => page.text())
      .then((html) => /<meta name="console-token" content="([^"]+)">/.exec(html)?.[1]);
    tokens.set(origin, token);
  }
  return token;
}

export async function consoleApi(
  origin: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const token = await pageToken(origin);
  const response = await fetch(`${origin}/_console/api/${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-console-token': token } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return readAnswer(response);
}
