/** One browser test file's live surroundings: a reference server and a browser, started once for the file. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ThreadworkClient } from '@threadwork/shared';
import { afterAll, beforeAll } from 'vitest';
import { type RunningServer, SEED, startServer } from './server.ts';

/** Screenshots for a look at the UI (not committed). */
export const SHOTS = join(import.meta.dirname, '../screenshots');

export interface Live<B> {
  browser: B;
  server: RunningServer;
  /** The seed's full v2 key on the server: what the tests read the service's state with. */
  api: ThreadworkClient;
}

/**
 * Starts the server and `launch`es the browser before the file's tests (when `enabled`), hands them to
 * `started`, and stops both after.
 */
export function liveSuite<B extends { close(): Promise<void> }>(
  enabled: boolean,
  launch: () => Promise<B>,
  started: (live: Live<B>) => void,
): void {
  let live: Partial<Live<B>> = {};
  beforeAll(async () => {
    if (!enabled) return;
    mkdirSync(SHOTS, { recursive: true });
    const [server, browser] = await Promise.all([startServer(), launch()]);
    live = {
      server,
      browser,
      api: new ThreadworkClient({ baseUrl: `${server.origin}/v2`, apiKey: SEED.v2Key }),
    };
    started(live as Live<B>);
  });
  afterAll(async () => {
    await live.browser?.close();
    await live.server?.stop();
  });
}
