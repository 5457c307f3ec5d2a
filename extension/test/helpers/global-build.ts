/**
 * Vitest global setup: the test extensions are built once, before any browser test file starts. Test files
 * run in parallel, and a second build while a browser has the first one loaded would swap its files.
 * Chromium's build when Chromium runs, Firefox's when Firefox does.
 */
import { BROWSER_TESTS, BUILT_ONCE, buildTestExtension } from './browser.ts';
import { FIREFOX_TESTS } from './firefox.ts';

export default async function setup(): Promise<void> {
  if (BROWSER_TESTS) await buildTestExtension('chrome');
  if (FIREFOX_TESTS) await buildTestExtension('firefox');
  process.env[BUILT_ONCE] = '1';
}
