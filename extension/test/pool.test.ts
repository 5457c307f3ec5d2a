// What goes to the service first (lib/background/pool.ts): on a slow service the browser's six connections
// are all there is, and a request that takes one of them before what the panel waits for costs a round trip.
import { describe, expect, it } from 'vitest';
import { prioritized } from '../lib/background/pool.ts';

/** A fetch whose answers come when the test says, recording the order requests went out in. */
function heldFetch() {
  const started: string[] = [];
  const answers = new Map<string, () => void>();
  const fetch = ((input: RequestInfo | URL) => {
    const path = String(input);
    started.push(path);
    return new Promise<Response>((resolve) => answers.set(path, () => resolve(new Response('{}'))));
  }) as typeof globalThis.fetch;
  return { fetch, started, answer: (path: string) => answers.get(path)?.() };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((go) => setTimeout(go, 10));
};

describe('prioritized requests', () => {
  it('sends what the form waits for at once and at most two of what it shows later', async () => {
    const service = heldFetch();
    const { first, later } = prioritized(service.fetch);
    for (const path of ['/members', '/fields', '/thread-tasks']) void later(path);
    void first('/teams');
    await until(() => service.started.length === 3);
    expect(service.started).toEqual(['/members', '/fields', '/teams']);
    service.answer('/members');
    await until(() => service.started.length === 4);
    expect(service.started.at(-1)).toBe('/thread-tasks');
  });

  it('queues what nothing waits for behind what was asked for in the same breath, even asked first', async () => {
    const service = heldFetch();
    const { later, last } = prioritized(service.fetch);
    // The personal boards, not wanted, asked for just before the remembered board's members and fields.
    void last('/personal-boards');
    void later('/members');
    void later('/fields');
    await until(() => service.started.length === 2);
    await new Promise((go) => setTimeout(go, 150));
    expect(service.started).toEqual(['/members', '/fields']);
    service.answer('/members');
    await until(() => service.started.length === 3);
    expect(service.started).toEqual(['/members', '/fields', '/personal-boards']);
  });
});
