// @vitest-environment node
/**
 * Setting up from the mailbox in Firefox with the build a store user installs (`.output/firefox-mv3`: no
 * host granted ahead). Firefox gives a page in a frame no `permissions` API: the panel cannot ask the browser
 * itself, so it opens the settings page in a tab at its "Allow access" button (never a way back to the same
 * panel), where the click asks. The browser's prompt cannot be answered headless: followed up to it.
 */
import { join } from 'node:path';
import type { Frame } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { FIREFOX_PRODUCTION_BUILD, MAILBOX_URL } from './helpers/browser.ts';
import {
  FIREFOX_TESTS,
  firefoxPanelFrame,
  firefoxSettingsTab,
  type LoadedFirefox,
  launchFirefoxWithExtension,
} from './helpers/firefox.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import { type RunningServer, SEED } from './helpers/server.ts';

let firefox: LoadedFirefox;
let server: RunningServer;
liveSuite(
  FIREFOX_TESTS,
  () => launchFirefoxWithExtension(FIREFOX_PRODUCTION_BUILD),
  (live) => {
    ({ browser: firefox, server } = live);
  },
);

const attribute = (frame: Frame, id: string, name: string) =>
  frame.$eval(`[data-testid="${id}"]`, (element, name) => element.getAttribute(name), name).catch(() => null);

describe.runIf(FIREFOX_TESTS)('setting up from the mailbox in Firefox, with the store build', () => {
  it('saves in the panel, then allows access in the settings tab it opens at the Allow access button', async () => {
    const page = await firefox.newMailboxPage();
    await page.goto(MAILBOX_URL);
    await page.evaluate(() => {
      location.hash = '#inbox/FMfcgzQXJroof';
    });
    await page.locator('>>> [data-testid="threadwork-create-task"]').click();
    const frame = await firefoxPanelFrame(page);
    await expect.poll(() => attribute(frame, 'threadwork-error', 'data-kind')).toBe('not_configured');
    await frame.locator('[data-testid="threadwork-error"] button').click();
    for (const [id, value] of [
      ['origin', server.origin],
      ['email', SEED.credentials.email],
      ['api-key', SEED.credentials.apiKey],
      ['api-secret', SEED.credentials.apiSecret],
      ['key-name', SEED.credentials.keyName],
    ] as const)
      await frame.locator(`[data-testid="threadwork-settings-${id}"]`).fill(value);
    await frame.locator('[data-testid="threadwork-settings-save"]').click();

    // Saved; the browser would not ask from the panel, so the panel says where it asks instead.
    await expect.poll(() => attribute(frame, 'threadwork-grant-status', 'data-state')).toBe('elsewhere');
    expect(
      await frame.$eval('[data-testid="threadwork-settings-saved"]', (element) => element.textContent),
    ).toBe('Saved.');
    await page.screenshot({ path: join(SHOTS, 'firefox-store-build-panel.png') });

    // The settings tab, at its button: it has the keyboard, and its click asks the browser.
    const settings = await firefoxSettingsTab(firefox.browser, '#grant');
    await expect
      .poll(() => settings.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('threadwork-settings-grant');
    expect(
      await settings.$eval('[data-testid="threadwork-settings-grant"]', (element) => element.textContent),
    ).toBe(`Allow access to ${new URL(server.origin).host}`);
    await settings.locator('[data-testid="threadwork-settings-grant"]').click();
    // The prompt is up (headless Firefox never answers it): the page waits for the user's answer.
    await expect
      .poll(() =>
        settings.$eval('[data-testid="threadwork-grant-status"]', (element) =>
          element.getAttribute('data-state'),
        ),
      )
      .toBe('waiting');
    await settings.screenshot({ path: join(SHOTS, 'firefox-store-build-settings.png') });
    // One settings tab, not a loop of them.
    const open = await Promise.all(
      (await firefox.browser.pages()).map((tab) => tab.evaluate(() => document.URL).catch(() => '')),
    );
    expect(open.filter((url) => url.endsWith('/options.html#grant'))).toHaveLength(1);
    await settings.close();
    await page.close();
  });
});
