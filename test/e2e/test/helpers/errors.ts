/** The error a promise rejects with; fails when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** A fetch that records every URL it is asked for, then does the real fetch. */
export function recordingFetch(): { fetch: typeof fetch; calls: { method: string; url: string }[] } {
  const calls: { method: string; url: string }[] = [];
  const recording: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ method: init?.method ?? 'GET', url });
    return fetch(input, init);
  };
  return { fetch: recording, calls };
}
