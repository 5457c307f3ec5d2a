import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, chromium } from 'playwright-core';

export const EXTENSION_ROOT = resolve(import.meta.dirname, '../..');
export const TEST_BUILD = join(EXTENSION_ROOT, '.output/chrome-mv3-test');
export const CHROMIUM =
  process.env['CHROMIUM_PATH'] ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
    existsSync(path),
  ) ??
  '/usr/bin/chromium';
/**
 * The browser tests need a Chromium on the machine (none can be downloaded). Without one they are skipped
 * with a note on a developer's machine, and fail in CI (`CI` set), which always installs it.
 */
export const BROWSER_TESTS = existsSync(CHROMIUM) || Boolean(process.env['CI']);
if (!BROWSER_TESTS) {
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (install it, or set CHROMIUM_PATH)`);
}
export const MAILBOX_URL = 'https://mail.google.com/mail/u/0/#inbox';
const MAILBOX_PAGE = readFileSync(join(import.meta.dirname, '../fixtures/mailbox-app.html'), 'utf8');

/** Builds the test extension (`build:test`): loopback hosts are granted in its manifest. */
export async function buildTestExtension(): Promise<void> {
  await promisify(execFile)(join(EXTENSION_ROOT, 'node_modules/.bin/wxt'), ['build', '--mode', 'test'], {
    cwd: EXTENSION_ROOT,
  });
  if (!existsSync(join(TEST_BUILD, 'manifest.json'))) throw new Error(`no build in ${TEST_BUILD}`);
}

export interface LoadedBrowser {
  context: BrowserContext;
  extensionId: string;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with the built extension loaded and the mailbox page served at its real URL. */
export async function launchWithExtension(): Promise<LoadedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'threadwork-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      `--load-extension=${TEST_BUILD}`,
      `--disable-extensions-except=${TEST_BUILD}`,
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 800 },
  });
  await context.route('https://mail.google.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: MAILBOX_PAGE }),
  );
  const worker =
    context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    extensionId,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
