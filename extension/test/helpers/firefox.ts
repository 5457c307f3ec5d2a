/**
 * Firefox at run time: Debian's `firefox-esr`, driven by puppeteer-core over WebDriver BiDi (no browser
 * download), with the unpacked `firefox-mv3` test build installed by the driver itself and the mailbox page
 * served at its real URL by request interception.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';
import { FIREFOX_TEST_BUILD, MAILBOX_PAGE } from './browser.ts';

export const FIREFOX =
  process.env['FIREFOX_PATH'] ??
  ['/usr/bin/firefox-esr', '/usr/bin/firefox'].find((path) => existsSync(path)) ??
  '/usr/bin/firefox-esr';
/** Like Chromium: skipped with a note where Firefox is missing, required in CI (which installs it). */
export const FIREFOX_TESTS = existsSync(FIREFOX) || Boolean(process.env['CI']);
if (!FIREFOX_TESTS) {
  console.warn(`Firefox tests skipped: no Firefox at ${FIREFOX} (install firefox-esr, or set FIREFOX_PATH)`);
}

export interface LoadedFirefox {
  browser: Browser;
  /** A new tab whose requests to the mailbox are answered with the saved mailbox page. */
  newMailboxPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Firefox with `build` installed (the test build unless told). */
export async function launchFirefoxWithExtension(build = FIREFOX_TEST_BUILD): Promise<LoadedFirefox> {
  const profile = mkdtempSync(join(tmpdir(), 'threadwork-firefox-'));
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    userDataDir: profile,
  });
  try {
    await browser.installExtension(build);
  } catch (error) {
    await browser.close();
    throw error;
  }
  return {
    browser,
    newMailboxPage: async () => {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 800 });
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (request.url().startsWith('https://mail.google.com/')) {
          void request.respond({ status: 200, contentType: 'text/html; charset=utf-8', body: MAILBOX_PAGE });
        } else void request.continue();
      });
      return page;
    },
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The panel's frame in a mailbox tab (over WebDriver BiDi its address reads `about:blank`: it is found by
 * what it holds), once it shows the panel.
 */
export async function firefoxPanelFrame(page: Page, timeout = 15_000): Promise<Frame> {
  for (const started = Date.now(); Date.now() - started < timeout; ) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const found = await frame
        .evaluate(() => document.querySelector('[data-testid="threadwork-panel"]') !== null)
        .catch(() => false);
      if (found) return frame;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the panel has no frame');
}

/** The tab whose document is the extension's settings page at `hash` (`#grant`, or '' for none), once open. */
export async function firefoxSettingsTab(browser: Browser, hash: string, timeout = 15_000): Promise<Page> {
  for (const started = Date.now(); Date.now() - started < timeout; ) {
    for (const page of await browser.pages()) {
      const url = await page.evaluate(() => document.URL).catch(() => '');
      if (/^moz-extension:\/\/[^/]+\/options\.html/.test(url) && new URL(url).hash === hash) return page;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no settings tab opened');
}
