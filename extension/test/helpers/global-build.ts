/**
 * Vitest global setup: the test extension is built once, before any browser test file starts. Test files
 * run in parallel, and a second build while a browser has the first one loaded would swap its files.
 */
import { BROWSER_TESTS, BUILT_ONCE, buildTestExtension } from './browser.ts';

export default async function setup(): Promise<void> {
  if (!BROWSER_TESTS) return;
  await buildTestExtension();
  process.env[BUILT_ONCE] = '1';
}
