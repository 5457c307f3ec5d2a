/**
 * Which requests go to the service first. A browser opens at most six connections to one service and queues
 * the rest: when the panel opens it asks for seven or more things at once, and on a slow service the one left
 * queued waits a whole round trip. What a form waits for (teams, boards, lists, a create) goes at once; what
 * it can show later (members, custom fields, the thread's tasks) goes at most `together` at a time, so it
 * never takes the connections the rest needs; what nothing on screen waits for yet (the personal boards,
 * when the last task went to a team) joins that queue a moment later, behind what the panel asked for in
 * the same breath.
 */
export interface PrioritizedFetch {
  /** For what the user waits on. */
  first: typeof fetch;
  /** For what may come a little later. */
  later: typeof fetch;
  /** For what nothing waits for yet: queued behind the `later` requests sent with it. */
  last: typeof fetch;
}

/** How long a `last` request lets the requests sent with it go ahead (a panel's first burst takes a few ms). */
const LAST_DELAY_MS = 100;

export function prioritized(fetch: typeof globalThis.fetch, together = 2): PrioritizedFetch {
  let running = 0;
  const waiting: (() => void)[] = [];
  const later: typeof fetch = async (input, init) => {
    if (running >= together) await new Promise<void>((go) => waiting.push(go));
    running += 1;
    try {
      return await fetch(input, init);
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
  const last: typeof fetch = async (input, init) => {
    await new Promise((go) => setTimeout(go, LAST_DELAY_MS));
    return later(input, init);
  };
  return { first: fetch, later, last };
}
