// The console's one way to its server: every request the app makes (its API calls and its event stream)
// goes through `consoleFetch`, so whatever each request must carry is added in this one place: the page's
// token (`x-console-token`), which the server writes into the page it serves and asks of every console
// API request (docs/console.md).

export interface ConsoleRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | null;
  signal?: AbortSignal;
}

const TOKEN_PATTERN = /<meta name="console-token" content="([^"]+)">/;

/** The page's token, as the server wrote it into the page. */
let pageToken = document.querySelector<HTMLMetaElement>('meta[name="console-token"]')?.content ?? '';

/**
 * The token of the server now running, read from a page it serves (same origin: no other site can read
 * it). A server makes a new token each time it starts, so a page left open across a restart holds a
 * stale one; the live pages must go on working, so a refused request asks once for the new one.
 */
async function renewToken(): Promise<boolean> {
  try {
    const page = await fetch('/', { headers: { accept: 'text/html' } });
    const token = TOKEN_PATTERN.exec(await page.text())?.[1];
    if (token === undefined || token === pageToken) return false;
    pageToken = token;
    return true;
  } catch {
    return false;
  }
}

function send(path: string, request: ConsoleRequest): Promise<Response> {
  return fetch(path, {
    method: request.method ?? 'GET',
    headers: { ...request.headers, 'x-console-token': pageToken },
    body: request.body ?? null,
    ...(request.signal ? { signal: request.signal } : {}),
  });
}

export async function consoleFetch(path: string, request: ConsoleRequest = {}): Promise<Response> {
  const response = await send(path, request);
  if (response.status === 403 && (await renewToken())) return send(path, request);
  return response;
}
