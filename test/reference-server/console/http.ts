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

/** The page's token, as the server wrote it into the page. */
const pageToken = document.querySelector<HTMLMetaElement>('meta[name="console-token"]')?.content ?? '';

export function consoleFetch(path: string, request: ConsoleRequest = {}): Promise<Response> {
  return fetch(path, {
    method: request.method ?? 'GET',
    headers: { ...request.headers, 'x-console-token': pageToken },
    body: request.body ?? null,
    ...(request.signal ? { signal: request.signal } : {}),
  });
}
