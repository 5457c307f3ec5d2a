// The console's one way to its server: every request the app makes (its API calls and its event stream)
// goes through `consoleFetch`, so whatever each request must carry is added in this one place: the page's
// token (`x-console-token`), which the server writes into the page it serves and asks of every console
// API request (docs/console.md).

export interface ConsoleRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | null;
}

const TOKEN_PATTERN = /<meta name="console-token" content="([^"]+)">/;

/** The page's token, as the server wrote it into the page. */
let pageToken = document.querySelector<HTMLMetaElement>('meta[name="console-token"]')?.content ?? '';

/** The read of the running server's token under way, shared by every request refused meanwhile. */
let renewal: Promise<void> | null = null;

/**
 * Reads the token of the server now running from a page it serves (same origin: no other site can read
 * it). A server makes a new token each time it starts, so a page left open across a restart holds a
 * stale one; the live pages must go on working. Several requests refused together (a restart refuses
 * every read in flight) share one read.
 */
function renewToken(): Promise<void> {
  renewal ??= (async () => {
    try {
      const page = await fetch('/', { headers: { accept: 'text/html' } });
      const token = TOKEN_PATTERN.exec(await page.text())?.[1];
      if (token !== undefined) pageToken = token;
    } catch {
      // the server is away: the request's own refusal stands
    } finally {
      renewal = null;
    }
  })();
  return renewal;
}

function send(path: string, request: ConsoleRequest, token: string): Promise<Response> {
  return fetch(path, {
    method: request.method ?? 'GET',
    headers: { ...request.headers, 'x-console-token': token },
    body: request.body ?? null,
  });
}

/** A request with the page's token; refused, it is sent once more if the server's token has changed. */
export async function consoleFetch(path: string, request: ConsoleRequest = {}): Promise<Response> {
  const sentWith = pageToken;
  const response = await send(path, request, sentWith);
  if (response.status !== 403) return response;
  // Another refused request may have read the new token already: compare with the one this one sent.
  if (pageToken === sentWith) await renewToken();
  return pageToken === sentWith ? response : send(path, request, pageToken);
}
