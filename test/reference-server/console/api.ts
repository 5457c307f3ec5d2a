// The console's calls to its server (`/_console/api/…`, same origin: the server acts as its user for
// loopback clients only) and the live feed (server-sent events, no polling). Every call goes through
// `call`, which sends the page's token (the server writes it into the page) in `x-console-token`: the
// server answers no console API request without it (docs/console.md).
import type { ConsoleChange } from '@threadwork/shared/schemas';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(message: string, status: number, code: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** The page's token, as the server wrote it into the page. */
const pageToken = document.querySelector<HTMLMetaElement>('meta[name="console-token"]')?.content ?? '';

/** The one way to call the console's API: `method` on `/_console/api/{path}`, answering its `data`. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/_console/api/${path}`, {
      method,
      headers: {
        'x-console-token': pageToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('The server does not answer. Is it still running?', 0, 'connection');
  }
  const text = await response.text();
  let json: { data?: T; error?: { code: string; message: string } } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: reported below
  }
  if (!response.ok || json.data === undefined) {
    throw new ApiError(
      json.error?.message ?? `The server answered ${response.status}.`,
      response.status,
      json.error?.code ?? 'unknown',
    );
  }
  return json.data;
}

const get = <T>(path: string) => call<T>('GET', path);

// One EventSource for the whole app; pages subscribe to the changes they show.
type ChangeListener = (changes: ConsoleChange[]) => void;
const changeListeners = new Set<ChangeListener>();
const statusListeners = new Set<(live: boolean) => void>();
let source: EventSource | null = null;
let live = false;

function connect(): void {
  if (source) return;
  source = new EventSource('/_console/events');
  source.onopen = () => setLive(true);
  source.onerror = () => setLive(false);
  source.onmessage = (event) => {
    const changes = JSON.parse(event.data as string) as ConsoleChange[];
    for (const listener of changeListeners) listener(changes);
  };
}

function setLive(value: boolean): void {
  live = value;
  for (const listener of statusListeners) listener(value);
}

/** Whether the live feed is connected. */
export function useLiveStatus(): boolean {
  const [value, setValue] = useState(live);
  useEffect(() => {
    connect();
    statusListeners.add(setValue);
    return () => {
      statusListeners.delete(setValue);
    };
  }, []);
  return value;
}

/** Calls `onChange` with every batch of committed changes `relevant` keeps. */
export function useChanges(
  relevant: (change: ConsoleChange) => boolean,
  onChange: (changes: ConsoleChange[]) => void,
): void {
  const latest = useRef({ relevant, onChange });
  latest.current = { relevant, onChange };
  useEffect(() => {
    connect();
    const listener: ChangeListener = (changes) => {
      const kept = changes.filter((change) => latest.current.relevant(change));
      if (kept.length > 0) latest.current.onChange(kept);
    };
    changeListeners.add(listener);
    return () => {
      changeListeners.delete(listener);
    };
  }, []);
}

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  reload(): void;
  setData(update: (data: T) => T): void;
}

/**
 * Reads `path`, and reads it again whenever a relevant change is committed (several changes arriving
 * together cause one read). An answer that arrives after a newer one started is dropped.
 */
export function useResource<T>(path: string, relevant: (change: ConsoleChange) => boolean): Loaded<T> {
  const [state, setState] = useState<{ path: string; data: T | null; error: ApiError | null }>({
    path,
    data: null,
    error: null,
  });
  const generation = useRef(0);
  const pending = useRef(false);
  const load = useCallback(() => {
    const mine = ++generation.current;
    get<T>(path).then(
      (data) => {
        if (mine === generation.current) setState({ path, data, error: null });
      },
      (error: ApiError) => {
        if (mine === generation.current)
          setState((old) => ({ path, data: old.path === path ? old.data : null, error }));
      },
    );
  }, [path]);
  useEffect(load, [load]);
  useChanges(relevant, () => {
    if (pending.current) return;
    pending.current = true;
    queueMicrotask(() => {
      pending.current = false;
      load();
    });
  });
  const current = state.path === path ? state : { data: null, error: null };
  return {
    data: current.data,
    error: current.error,
    reload: load,
    setData: (update) => setState((old) => (old.data === null ? old : { ...old, data: update(old.data) })),
  };
}

/** One user action at a time: `busy` while it runs, its failure in `error` (cleared when it runs again). */
export function useAction(): {
  busy: boolean;
  error: ApiError | null;
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  async function run<T>(work: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (failure) {
      setError(failure as ApiError);
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}
