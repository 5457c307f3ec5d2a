// A console page left open across a server restart holds the old server's token (docs/console.md). The
// restart refuses every read the live page has in flight at once; each of them must be answered once the
// page has read the new token, not only the first to be refused (the others used to surface as errors and
// leave their list stale). The page's own request function (console/http.ts) runs here against a real
// server, with the page's document and its same-origin fetch given as the browser gives them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/server.ts';
import { freshDatabase } from './helpers/database.ts';
import { offlineResolver } from './helpers/server.ts';

let server: RunningServer;
/** console/http.ts's `consoleFetch` (typed by the console's own DOM tsconfig, so imported by a name here). */
let consoleFetch: (path: string) => Promise<Response>;
const PAGE_HTTP = '../console/http.ts';
const pageReads: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = await startServer({
    port: 0,
    ...(await freshDatabase(undefined)),
    demo: true,
    console: true,
    resolveHost: offlineResolver,
  });
  // The page as the previous server process served it: its meta tag carries that process's token.
  Object.assign(globalThis, {
    document: { querySelector: () => ({ content: 'token-of-the-server-before-the-restart' }) },
    fetch: (path: string, init?: RequestInit) => {
      if (path === '/') pageReads.push(path);
      return realFetch(new URL(path, server.origin), init);
    },
  });
  ({ consoleFetch } = await import(PAGE_HTTP));
});

afterAll(async () => {
  Object.assign(globalThis, { fetch: realFetch });
  Reflect.deleteProperty(globalThis, 'document');
  await server?.close();
});

it('answers every request refused together for a stale token, reading the new token once', async () => {
  const reads = ['overview', 'mail', 'deliveries'].map((path) => consoleFetch(`/_console/api/${path}`));
  const statuses = (await Promise.all(reads)).map((response) => response.status);
  expect(statuses).toEqual([200, 200, 200]);
  expect(pageReads).toHaveLength(1);
  // Later requests carry the new token from the start.
  expect((await consoleFetch('/_console/api/overview')).status).toBe(200);
  expect(pageReads).toHaveLength(1);
});
