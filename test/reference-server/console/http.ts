// The console's one way to its server: every request the app makes (its API calls and its event stream)
// goes through `consoleFetch`, so whatever each request must carry is added in this one place.

export interface ConsoleRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | null;
  signal?: AbortSignal;
}

export function consoleFetch(path: string, request: ConsoleRequest = {}): Promise<Response> {
  return fetch(path, {
    method: request.method ?? 'GET',
    headers: { ...request.headers },
    body: request.body ?? null,
    ...(request.signal ? { signal: request.signal } : {}),
  });
}
