import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, chromium, type Frame, type FrameLocator, type Page } from 'playwright-core';
import { SEED } from './server.ts';

export const EXTENSION_ROOT = resolve(import.meta.dirname, '../..');
export const TEST_BUILD = join(EXTENSION_ROOT, '.output/chrome-mv3-test');
export const FIREFOX_TEST_BUILD = join(EXTENSION_ROOT, '.output/firefox-mv3-test');
/** The builds a store user installs: no host granted ahead. */
export const PRODUCTION_BUILD = join(EXTENSION_ROOT, '.output/chrome-mv3');
export const FIREFOX_PRODUCTION_BUILD = join(EXTENSION_ROOT, '.output/firefox-mv3');
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
export const MAILBOX_PAGE = readFileSync(join(import.meta.dirname, '../fixtures/mailbox-app.html'), 'utf8');

/** Set by the test run's global setup once it has built the extensions (test/helpers/global-build.ts). */
export const BUILT_ONCE = 'THREADWORK_TEST_EXTENSION_BUILT';

/**
 * Builds the test extension (`build:test`, loopback hosts granted in its manifest) or the production one
 * (`mode: 'production'`, what a store user installs) for one browser. In a test run the global setup has
 * built them all already, and this only checks the build is there.
 */
export async function buildTestExtension(
  browser: 'chrome' | 'firefox' = 'chrome',
  mode: 'test' | 'production' = 'test',
): Promise<void> {
  if (process.env[BUILT_ONCE] !== '1') {
    await promisify(execFile)(
      join(EXTENSION_ROOT, 'node_modules/.bin/wxt'),
      ['build', '--mode', mode, '-b', browser],
      { cwd: EXTENSION_ROOT },
    );
  }
  const out = {
    chrome: { test: TEST_BUILD, production: PRODUCTION_BUILD },
    firefox: { test: FIREFOX_TEST_BUILD, production: FIREFOX_PRODUCTION_BUILD },
  }[browser][mode];
  if (!existsSync(join(out, 'manifest.json'))) throw new Error(`no build in ${out}`);
}

export interface LoadedBrowser {
  context: BrowserContext;
  extensionId: string;
  /** The settings tab the extension opened on install (first run), loaded. */
  installPage: Page;
  close(): Promise<void>;
}

/**
 * Debian's Chromium, headless, with the built extension loaded (the test build, or `build`) and the mailbox
 * page served at its real URL.
 */
export async function launchWithExtension(build = TEST_BUILD): Promise<LoadedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'threadwork-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      `--load-extension=${build}`,
      `--disable-extensions-except=${build}`,
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
  // The install opens the settings in a tab; waiting for it here keeps it from taking over a tab a test opens.
  const options = `chrome-extension://${extensionId}/options.html`;
  let installPage: Page | undefined;
  for (let waited = 0; installPage === undefined; waited += 50) {
    if (waited > 15_000) throw new Error('the extension opened no settings tab on install');
    installPage = context.pages().find((page) => page.url() === options);
    if (installPage === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await installPage.waitForLoadState();
  return {
    context,
    extensionId,
    installPage,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens a thread of the mailbox page by its URL token, as a click in the list does. */
export async function openThread(page: Page, token: string): Promise<void> {
  // No DOM types here: the e2e tests type-check this helper without them.
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#inbox/${token}`);
}

/** The panel's frame (an extension page) as the mailbox page holds it. */
export const PANEL_FRAME = 'iframe[data-threadwork-frame]';

/** What the panel shows, inside its frame: `panel(page).getByTestId(…)`. */
export function panel(page: Page): FrameLocator {
  return page.frameLocator(PANEL_FRAME);
}

/** The panel's frame itself, once it is there (for `evaluate`, axe, the keyboard's whereabouts). */
export async function panelFrame(page: Page): Promise<Frame> {
  const element = await page.locator(PANEL_FRAME).elementHandle();
  const frame = await element?.contentFrame();
  if (frame == null) throw new Error('the panel has no frame');
  await frame.waitForLoadState();
  return frame;
}

/** A new mailbox tab on one thread, with the task panel opened by its button. */
export async function openPanel(browser: LoadedBrowser, token: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(MAILBOX_URL);
  await openThread(page, token);
  await page.getByTestId('threadwork-create-task').click();
  return page;
}

/** The options page of the loaded extension. */
export async function openOptions(browser: LoadedBrowser): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(`chrome-extension://${browser.extensionId}/options.html`);
  return page;
}

/** Fills the settings form with the seed's credentials (or a changed secret) without saving. */
export async function fillSettings(
  page: Page | Frame,
  origin: string,
  overrides: { apiSecret?: string } = {},
): Promise<void> {
  await page.getByTestId('threadwork-settings-origin').fill(origin);
  await page.getByTestId('threadwork-settings-email').fill(SEED.credentials.email);
  await page.getByTestId('threadwork-settings-api-key').fill(SEED.credentials.apiKey);
  await page
    .getByTestId('threadwork-settings-api-secret')
    .fill(overrides.apiSecret ?? SEED.credentials.apiSecret);
  await page.getByTestId('threadwork-settings-key-name').fill(SEED.credentials.keyName);
}

/** Saves the seed's credentials in the options page; answers the page, still open. */
export async function configure(
  browser: LoadedBrowser,
  origin: string,
  overrides: { apiSecret?: string } = {},
): Promise<Page> {
  const page = await openOptions(browser);
  await fillSettings(page, origin, overrides);
  await page.getByTestId('threadwork-settings-save').click();
  await page.getByTestId('threadwork-settings-saved').waitFor();
  return page;
}
