// @vitest-environment node
/**
 * Setting up from the mailbox with the build a store user installs (`.output/chrome-mv3`: no host granted
 * ahead), in a real Chromium. The browser's prompt for the service's host cannot be answered in a headless
 * browser (`permissions.request()` never settles there), so the journey is followed up to that prompt: the
 * panel's frame asks for exactly the service's origin on the click itself, the form is saved meanwhile and
 * says it waits for the answer, and nothing sends the user round in a loop. What follows a granted prompt is
 * the same code as with the test build's loopback grant (browser.test.ts, panel.browser.test.ts).
 */
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_TESTS,
  fillSettings,
  type LoadedBrowser,
  launchWithExtension,
  MAILBOX_URL,
  openThread,
  PANEL_FRAME,
  PRODUCTION_BUILD,
  panel,
  panelFrame,
} from './helpers/browser.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import type { RunningServer } from './helpers/server.ts';

let browser: LoadedBrowser;
let server: RunningServer;
liveSuite(
  BROWSER_TESTS,
  () => launchWithExtension(PRODUCTION_BUILD),
  (live) => {
    ({ browser, server } = live);
  },
);

/**
 * Records each call of the browser's `permissions.request` in an extension page, then lets it go on to the
 * browser (which shows its prompt): what the page asked for, not an answer made up for it.
 */
async function recordAccessRequests(frame: Frame | Page): Promise<void> {
  await frame.evaluate(() => {
    const api = (
      globalThis as unknown as {
        chrome: { permissions: { request: (...args: unknown[]) => unknown } };
        asked: unknown[];
      }
    ).chrome.permissions;
    const request = api.request.bind(api);
    (globalThis as unknown as { asked: unknown[] }).asked = [];
    api.request = (...args: unknown[]) => {
      (globalThis as unknown as { asked: unknown[] }).asked.push(args[0]);
      return request(...args);
    };
  });
}

const asked = (frame: Frame | Page) =>
  frame.evaluate(() => (globalThis as unknown as { asked: unknown[] }).asked);

describe.runIf(BROWSER_TESTS)('setting up from the mailbox, with the store build', () => {
  it('opens the settings with their welcome on install, and holds no host but the mailbox', async () => {
    await browser.installPage.getByTestId('threadwork-welcome').waitFor();
    const granted = await browser.context
      .serviceWorkers()[0]!
      .evaluate(() =>
        (
          globalThis as unknown as { chrome: { permissions: { getAll(): Promise<{ origins?: string[] }> } } }
        ).chrome.permissions.getAll(),
      );
    expect(granted.origins).toEqual(['https://mail.google.com/*']);
  });

  it('from the panel: the frame asks for the service’s host on the click, saves meanwhile, and never loops', async () => {
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    await openThread(page, 'FMfcgzQXJroof');
    await page.getByTestId('threadwork-create-task').click();
    const view = panel(page);
    const error = view.getByTestId('threadwork-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('not_configured');
    await error.getByRole('button', { name: 'Open settings' }).click();

    const frame = await panelFrame(page);
    await recordAccessRequests(frame);
    const tabs = browser.context.pages().length;
    await fillSettings(frame, server.origin);
    await view.getByTestId('threadwork-settings-save').click();
    // Saved, and waiting for the browser's prompt, which the frame itself asked for on this click.
    await view.getByTestId('threadwork-settings-saved').waitFor();
    const status = view.getByTestId('threadwork-grant-status');
    await expect.poll(() => status.getAttribute('data-state')).toBe('waiting');
    expect(await status.textContent()).toContain(`allow Threadwork to reach ${new URL(server.origin).host}`);
    expect(await asked(frame)).toEqual([{ origins: ['http://127.0.0.1/*'] }]);
    await page.locator(PANEL_FRAME).screenshot({ path: `${SHOTS}/store-build-panel-waiting.png` });

    // No loop: still the settings of this panel, no tab opened, no advice to go and save the settings.
    expect(await view.getByRole('heading', { name: 'Threadwork settings' }).count()).toBe(1);
    expect(browser.context.pages().length).toBe(tabs);
    expect(await view.getByTestId('threadwork-panel').textContent()).not.toMatch(/save them to allow/i);

    // Test connection asks the same way, on its own click.
    await view.getByTestId('threadwork-settings-test').click();
    await expect.poll(() => asked(frame)).toHaveLength(2);

    // Back to the task: it says what is missing, and its button asks again from the panel.
    await view.getByTestId('threadwork-panel').getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => error.getAttribute('data-kind')).toBe('permission');
    expect(await error.getByRole('button', { name: 'Open settings' }).count()).toBe(0);
    await error.getByTestId('threadwork-grant').click();
    await expect.poll(() => asked(frame)).toHaveLength(3);
    expect(browser.context.pages().length).toBe(tabs);
    await page.close();
  });

  it('the settings page, opened at its Allow access button, asks on that button’s click', async () => {
    const page = await browser.context.newPage();
    await page.goto(`chrome-extension://${browser.extensionId}/options.html#grant`);
    const grant = page.getByTestId('threadwork-settings-grant');
    await grant.waitFor();
    await expect.poll(() => grant.evaluate((button) => button === document.activeElement)).toBe(true);
    await recordAccessRequests(page);
    await grant.click();
    expect(await asked(page)).toEqual([{ origins: ['http://127.0.0.1/*'] }]);
    await expect
      .poll(() => page.getByTestId('threadwork-grant-status').getAttribute('data-state'))
      .toBe('waiting');
    await page.screenshot({ path: `${SHOTS}/store-build-settings-grant.png`, fullPage: true });
    await page.close();
  });
});
