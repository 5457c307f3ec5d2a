/**
 * Vitest global setup: the extensions are built once, before any browser test file starts. Test files run in
 * parallel, and a second build while a browser has the first one loaded would swap its files. Chromium's
 * builds when Chromium runs, Firefox's when Firefox does.
 */
import { BROWSER_TESTS, BUILT_ONCE, buildTestExtension } from './browser.ts';
import { FIREFOX_TESTS } from './firefox.ts';

export default async function setup(): Promise<void> {
  // The test builds, and the production ones the store-build journeys install.
  if (BROWSER_TESTS) {
    await buildTestExtension('chrome');
    await buildTestExtension('chrome', 'production');
  }
  if (FIREFOX_TESTS) {
    await buildTestExtension('firefox');
    await buildTestExtension('firefox', 'production');
  }
  process.env[BUILT_ONCE] = '1';
}
