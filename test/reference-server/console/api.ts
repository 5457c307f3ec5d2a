// The console's calls to its server (`/_console/api/…`, same origin, no credentials: the server acts as
// its user for loopback clients only) and the live feed (server-sent events, no polling), both through
// the one request function of http.ts (which sends the page's token the server asks for).
//
// A page never goes stale. Each answer of the console's API says where the server's change feed stood
// as its read began (`x-console-at`), and the event stream begins by saying where it starts (`sync`).
// A read that began at or after the stream's start shows everything the stream will not tell; any
// other read (an older one, one of a server since restarted, one that failed) is made again as soon as
// the stream is (re)connected. The dot in the header says "Live" only while the stream is connected and
// every read on the page is current that way.
import type { ConsoleChange } from '@threadwork/shared/schemas';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { consoleFetch } from './http.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Per field, what the server found wrong (`title: at most 1,024 characters`). */
  readonly details: { path: string; message: string }[];
  /** Where the feed stood as the failed read began (null when no answer came). */
  readonly at: string | null;
  constructor(
    message: string,
    status: number,
    code: string,
    details: { path: string; message: string }[] = [],
    at: string | null = null,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.at = at;
  }
}

interface Answered<T> {
  data: T;
  /** The feed's position as the read began. */
  at: string | null;
}

async function request<T>(method: string, path: string, body?: unknown): Promise<Answered<T>> {
  let response: Response;
  try {
    response = await consoleFetch(`/_console/api/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('The server does not answer. Is it still running?', 0, 'connection');
  }
  const at = response.headers.get('x-console-at');
  const text = await response.text();
  let json: {
    data?: T;
    error?: { code: string; message: string; details?: { path: string; message: string }[] };
  } = {};
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
      json.error?.details ?? [],
      at,
    );
  }
  return { data: json.data, at };
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await request<T>(method, path, body)).data;
}

// ---------------------------------------------------------------------------------------------------
// The live feed: one stream for the whole app; pages subscribe to the changes they show.

interface Position {
  instance: string;
  seq: number;
}

function parsePosition(text: string | null): Position | null {
  const match = text === null ? null : /^([0-9a-f]+)\.(\d+)$/.exec(text);
  return match ? { instance: match[1]!, seq: Number(match[2]) } : null;
}

/** A read a page shows, as the feed sees it. */
interface Tracked {
  /** Where the feed stood as its last good read began; null before one, or after a failed one. */
  at: Position | null;
  reload(): void;
}

type ChangeListener = (changes: ConsoleChange[]) => void;
export type LiveStatus = 'live' | 'connecting' | 'catching-up';

const changeListeners = new Set<ChangeListener>();
const statusListeners = new Set<(status: LiveStatus) => void>();
const tracked = new Set<Tracked>();
/** Where the connected stream started; null while it is not connected. */
let streamStart: Position | null = null;
let started = false;
let status: LiveStatus = 'connecting';

function isCurrent(entry: Tracked): boolean {
  return (
    streamStart !== null &&
    entry.at !== null &&
    entry.at.instance === streamStart.instance &&
    entry.at.seq >= streamStart.seq
  );
}

function updateStatus(): void {
  let next: LiveStatus = 'live';
  if (streamStart === null) next = 'connecting';
  else if ([...tracked].some((entry) => !isCurrent(entry))) next = 'catching-up';
  if (next === status) return;
  status = next;
  for (const listener of statusListeners) listener(next);
}

function onSync(start: Position | null): void {
  streamStart = start;
  // Whatever was read before this stream started (or on another server) may have missed a change.
  for (const entry of tracked) if (!isCurrent(entry)) entry.reload();
  updateStatus();
}

function onEvent(block: string): void {
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data += line.slice(5).trim();
  }
  if (data === '') return;
  if (event === 'sync') {
    onSync(parsePosition(JSON.parse(data) as string));
    return;
  }
  const changes = JSON.parse(data) as ConsoleChange[];
  for (const listener of changeListeners) listener(changes);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the stream connected, reconnecting soon after it drops (the server restarting, say). */
async function follow(): Promise<void> {
  let wait = 250;
  for (;;) {
    try {
      const response = await consoleFetch('/_console/events', { headers: { accept: 'text/event-stream' } });
      if (!response.ok || !response.body) throw new Error(`the event stream answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        wait = 250;
        buffer += value;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          onEvent(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // Dropped or refused: reconnect below.
    }
    onSync(null);
    await sleep(wait);
    wait = Math.min(wait * 2, 2000);
  }
}

/** Starts the feed (once); called as the app starts, so the stream is asked for before any read. */
export function startLive(): void {
  if (started) return;
  started = true;
  void follow();
}

/** Whether the page is live: the stream connected and every read on it current. */
export function useLiveStatus(): LiveStatus {
  const [value, setValue] = useState(status);
  useEffect(() => {
    startLive();
    statusListeners.add(setValue);
    setValue(status);
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
    startLive();
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

let reads = 0;
/**
 * Numbers a read as it is sent. A read sent later sees at least what an earlier one saw, so a page that
 * shows parts of one resource read separately (a board's lists) keeps, per part, the answer of the
 * latest-sent read: an older answer that arrives late is never drawn over a newer one.
 */
export function readNumber(): number {
  return ++reads;
}

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  /** Reads again; resolves once a read begun after this call is answered (and shown). */
  reload(): Promise<void>;
  setData(update: (data: T) => T): void;
}

/**
 * Reads `path`, and reads it again whenever a relevant change is committed, and whenever the stream
 * (re)connects after this read began. One read at a time: changes arriving meanwhile cause one more
 * read once it is answered. An answer for a path the page has left is dropped. `merge`, given, combines
 * an answer with what the page shows (parts of which it may have read again since; see readNumber).
 */
export function useResource<T>(
  path: string,
  relevant: (change: ConsoleChange) => boolean,
  merge?: (shown: T, answer: T, read: number) => T,
): Loaded<T> {
  const [state, setState] = useState<{ path: string; data: T | null; error: ApiError | null }>({
    path,
    data: null,
    error: null,
  });
  const flight = useRef<{ path: string; again: boolean } | null>(null);
  /** Who waits for the next read to begin (one asked for while another was in flight). */
  const waiting = useRef<(() => void)[]>([]);
  const entry = useRef<Tracked>({ at: null, reload: () => {} });
  // The page's latest `merge` (as useChanges keeps its latest callbacks): `load` is made once per path.
  const latestMerge = useRef(merge);
  latestMerge.current = merge;
  const load = useCallback(() => {
    if (flight.current?.path === path) {
      flight.current.again = true;
      return;
    }
    const mine = { path, again: false };
    flight.current = mine;
    const answered = waiting.current.splice(0);
    const read = readNumber();
    request<T>('GET', path)
      .then(
        ({ data, at }) => {
          if (flight.current !== mine) return;
          entry.current.at = parsePosition(at);
          const merge = latestMerge.current;
          setState((old) => ({
            path,
            data: merge && old.path === path && old.data !== null ? merge(old.data, data, read) : data,
            error: null,
          }));
        },
        (error: ApiError) => {
          if (flight.current !== mine) return;
          entry.current.at = parsePosition(error.at);
          setState((old) => ({ path, data: old.path === path ? old.data : null, error }));
        },
      )
      .finally(() => {
        for (const done of answered) done();
        if (flight.current !== mine) return;
        flight.current = null;
        // Asked again meanwhile, or read before the current stream started: read once more. (A read
        // that got no answer waits for the stream: it reconnects, and reads again, once the server is back.)
        const behind = streamStart !== null && entry.current.at !== null && !isCurrent(entry.current);
        if (mine.again || behind) load();
        updateStatus();
      });
  }, [path]);
  entry.current.reload = load;
  useEffect(() => {
    entry.current.at = null;
    load();
  }, [load]);
  useEffect(() => {
    const mine = entry.current;
    tracked.add(mine);
    updateStatus();
    return () => {
      tracked.delete(mine);
      updateStatus();
    };
  }, []);
  useChanges(relevant, () => load());
  const current = state.path === path ? state : { data: null, error: null };
  return {
    data: current.data,
    error: current.error,
    reload: () =>
      new Promise<void>((resolve) => {
        waiting.current.push(resolve);
        load();
      }),
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

/** The message the server gave for one field of a request (`title`), if it named that field. */
export function fieldMessage(error: ApiError | null, field: string): string | null {
  const detail = error?.details.find((entry) => entry.path === field || entry.path === `body.${field}`);
  return detail ? detail.message : null;
}
