/**
 * Builds the test extensions once, before any browser test file starts (files run in parallel, and two
 * builds into the same output folder would race): Chromium's when Chromium runs, Firefox's when Firefox does.
 */
import { BROWSER_TESTS, buildTestExtension } from './helpers/browser.ts';
import { FIREFOX_TESTS } from './helpers/firefox.ts';

export default async function setup(): Promise<void> {
  if (BROWSER_TESTS) await buildTestExtension('chrome');
  if (FIREFOX_TESTS) await buildTestExtension('firefox');
}
