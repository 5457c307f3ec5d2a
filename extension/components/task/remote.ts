/** Loading the service's answers in the panel: one answer per key, kept answers shown until fresh ones come. */
import { useEffect, useState } from 'preact/hooks';
import type { Answers } from './answers.ts';

/** What the panel knows of one answer: the best data so far, whether a fresh one is on its way, the last failure. */
export interface Remote<T> {
  key: string;
  /** The fresh answer, else the one kept from the last use, else null (unknown: not the same as empty). */
  data: T | null;
  loading: boolean;
  error: unknown;
}

export interface RemoteHandle<T> {
  /** Null when there is nothing to load (the key is null). */
  state: Remote<T> | null;
  data: T | null;
  /** Loads again (Retry, or after a change the answer depends on). */
  reload: () => void;
  set: (data: T) => void;
}

/**
 * Loads whenever `key` changes (null: nothing to load) or `reload` is called. An answer for an older key is
 * dropped. With `answers`, the answer kept from the last use shows at once while the fresh one loads, and the
 * fresh one is kept for next time.
 */
export function useRemote<T>(key: string | null, load: () => Promise<T>, answers?: Answers): RemoteHandle<T> {
  const [state, setState] = useState<Remote<T> | null>(null);
  const [attempt, setAttempt] = useState(0);
  const kept = (current: string) => answers?.get<T>(current) ?? null;
  useEffect(() => {
    if (key === null) {
      setState(null);
      return;
    }
    let live = true;
    setState((previous) => ({
      key,
      data: previous?.key === key ? previous.data : kept(key),
      loading: true,
      error: null,
    }));
    load().then(
      (data) => {
        if (!live) return;
        answers?.set(key, data);
        setState({ key, data, loading: false, error: null });
      },
      (error: unknown) =>
        live &&
        setState((previous) => ({
          key,
          data: previous?.key === key ? previous.data : kept(key),
          loading: false,
          error,
        })),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);
  const current: Remote<T> | null =
    key === null ? null : state?.key === key ? state : { key, data: kept(key), loading: true, error: null };
  return {
    state: current,
    data: current?.data ?? null,
    reload: () => setAttempt((value) => value + 1),
    set: (data) => {
      if (key === null) return;
      answers?.set(key, data);
      setState({ key, data, loading: false, error: null });
    },
  };
}

/** True once `active` has lasted `ms`: progress shows for slow answers only, never as a flash. */
export function useSlow(active: boolean, ms: number): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setSlow(true), ms);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [active]);
  return active && slow;
}

/**
 * Keeps the chosen id when it is one of `items` and may stay (`keep`: the user's own choice always may),
 * else picks the remembered one, else the first; among the `usable` items when there are any. It reads the
 * choice as it is when the answer lands (an updater), not as it was at the render before: a user who picks in
 * between keeps the pick.
 */
export function useChoice<T extends { id: string }>(
  items: T[] | null,
  setId: (update: (current: string) => string) => void,
  remembered: () => string | undefined,
  usable: (item: T) => boolean = () => true,
  keep: (item: T) => boolean = () => true,
) {
  useEffect(() => {
    if (items === null) return;
    setId((current) => {
      const chosen = items.find((item) => item.id === current);
      if (chosen !== undefined && keep(chosen)) return current;
      const candidates = items.some(usable) ? items.filter(usable) : items;
      return (candidates.find((item) => item.id === remembered()) ?? candidates[0])?.id ?? '';
    });
  }, [items]);
}
