// @vitest-environment node
/**
 * Setting the extension up, in a real Chromium with the test build: the first-run welcome, icons and the
 * toolbar action, the shortcut, "Test connection" on the form's values, errors that show no credential and
 * stay inside the page, the API tab (the extension's own key, key types, scopes), and axe-core on the
 * settings and the API tab, light and dark. Screenshots go to test/screenshots/ for a look.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ThreadworkClient } from '@threadwork/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CREATE_TASK_COMMAND, CREATE_TASK_SHORTCUT } from '../lib/shortcut.ts';
import { seriousViolations } from './helpers/axe.ts';
import {
  BROWSER_TESTS,
  configure,
  fillSettings,
  type LoadedBrowser,
  launchWithExtension,
  openOptions,
  openPanel,
  panel,
  TEST_BUILD,
} from './helpers/browser.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import { REPO_ROOT, type RunningServer, SEED } from './helpers/server.ts';

let browser: LoadedBrowser;
let server: RunningServer;
let api: ThreadworkClient;
liveSuite(BROWSER_TESTS, launchWithExtension, (live) => {
  ({ browser, server, api } = live);
});

/** The page in light and in dark: no serious or critical axe violation, and a screenshot of each. */
async function checkBothThemes(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect
      .poll(() => page.evaluate(() => document.body.classList.contains('tw-dark')))
      .toBe(colorScheme === 'dark');
    await page.screenshot({ path: join(SHOTS, `${name}-${colorScheme}.png`), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const worker = () => browser.context.serviceWorkers()[0]!;

describe.runIf(BROWSER_TESTS)('setting the extension up', () => {
  it('opens the settings on install, with a welcome that says where each value comes from', async () => {
    const page = browser.installPage;
    const welcome = page.getByTestId('threadwork-welcome');
    await welcome.waitFor();
    const text = await welcome.textContent();
    expect(text).toContain('API keys page');
    expect(text).toContain('https://app.example.com');
    // Written for a mailbox user: nothing a developer's machine prints.
    expect(text).not.toMatch(/pnpm|v1:|\/keys|localhost|127\.0\.0\.1/);
    await checkBothThemes(page, 'welcome');
    // Set up: the welcome has done its job.
    await fillSettings(page, server.origin);
    await page.getByTestId('threadwork-settings-save').click();
    await page.getByTestId('threadwork-settings-saved').waitFor();
    expect(await welcome.count()).toBe(0);
    await page.close();
  });

  it('has icons at 16, 32, 48 and 128 px, and a toolbar button that opens the settings', async () => {
    const manifest = JSON.parse(readFileSync(join(TEST_BUILD, 'manifest.json'), 'utf8'));
    for (const size of [16, 32, 48, 128]) {
      for (const icons of [manifest.icons, manifest.action.default_icon]) {
        const png = readFileSync(join(TEST_BUILD, icons[size]));
        // The PNG header: signature, then IHDR's width and height.
        expect(png.subarray(1, 4).toString()).toBe('PNG');
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
      }
    }
    expect(manifest.action.default_popup).toBeUndefined();
    expect(
      await worker().evaluate(() => {
        const { action } = (
          globalThis as unknown as { chrome: { action: { onClicked: { hasListeners(): boolean } } } }
        ).chrome;
        return action.onClicked.hasListeners();
      }),
    ).toBe(true);
  });

  it('has a keyboard shortcut the browser accepts, shown in the panel, the settings and the README', async () => {
    const commands = await worker().evaluate(() =>
      (
        globalThis as unknown as {
          chrome: { commands: { getAll(): Promise<{ name?: string; shortcut?: string }[]> } };
        }
      ).chrome.commands.getAll(),
    );
    const shortcut = commands.find((command) => command.name === CREATE_TASK_COMMAND)?.shortcut;
    // Chrome leaves a suggestion that clashes with its own keys unset (''): Alt+Shift+T did.
    expect(shortcut).toBe(CREATE_TASK_SHORTCUT);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).toContain(CREATE_TASK_SHORTCUT);

    const settings = await configure(browser, server.origin);
    await expect
      .poll(() => settings.getByTestId('threadwork-shortcut').getAttribute('data-shortcut'))
      .toBe(shortcut);
    // "Change" opens the browser's own shortcut page.
    const opened = browser.context.waitForEvent('page');
    await settings.getByTestId('threadwork-shortcut').getByRole('button', { name: 'Change' }).click();
    const shortcuts = await opened;
    await expect.poll(() => shortcuts.url()).toBe('chrome://extensions/shortcuts');
    await shortcuts.close();
    await settings.close();
    const page = await openPanel(browser, 'FMfcgzQXJroof');
    const hint = panel(page).getByTestId('threadwork-shortcut');
    await expect.poll(() => hint.getAttribute('data-shortcut')).toBe(shortcut);
    expect(await hint.textContent()).toContain(`${shortcut} opens this panel`);
    await page.close();
  });

  it('tests the values in the form, saved or not', async () => {
    const page = await configure(browser, server.origin, { apiSecret: 'wrong-secret' });
    // The right secret typed, not saved: the test signs in with it.
    await page.getByTestId('threadwork-settings-api-secret').fill(SEED.credentials.apiSecret);
    await page.getByTestId('threadwork-settings-test').click();
    await expect
      .poll(() => page.getByTestId('threadwork-settings-whoami').textContent())
      .toContain('Ada Lovelace');
    // And a wrong one typed over the saved right one fails, though the saved ones would pass.
    await fillSettings(page, server.origin);
    await page.getByTestId('threadwork-settings-save').click();
    await page.getByTestId('threadwork-settings-saved').waitFor();
    await page.getByTestId('threadwork-settings-api-secret').fill('wrong-secret');
    await page.getByTestId('threadwork-settings-test').click();
    await expect
      .poll(() => page.getByTestId('threadwork-settings-error').getAttribute('data-kind'))
      .toBe('bad_credentials');
    expect(await page.getByTestId('threadwork-settings-whoami').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'settings-test-bad-credentials.png'), fullPage: true });
    await page.close();
  });

  it('shows an unreachable service without any credential, inside a narrow page', async () => {
    const page = await configure(browser, 'http://127.0.0.1:9');
    await page.setViewportSize({ width: 360, height: 700 });
    await page.getByTestId('threadwork-settings-test').click();
    const error = page.getByTestId('threadwork-settings-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('unreachable');
    expect(await page.evaluate(() => document.body.textContent)).not.toContain(SEED.credentials.apiSecret);
    const message = await error.textContent();
    expect(message).not.toContain(SEED.credentials.apiKey);
    expect(message).not.toMatch(/api_secret|https?:\/\/\S+\?/);
    // Nothing wider than the page: neither the error nor anything else scrolls sideways.
    const widths = await page.evaluate(() => ({
      page: document.documentElement.clientWidth,
      content: document.documentElement.scrollWidth,
    }));
    expect(widths.content).toBeLessThanOrEqual(widths.page);
    await page.screenshot({ path: join(SHOTS, 'settings-unreachable-narrow.png'), fullPage: true });
    await page.close();
  });

  it('passes axe-core on the configured settings, light and dark', async () => {
    const page = await configure(browser, server.origin);
    await page.getByTestId('threadwork-settings-test').click();
    await page.getByTestId('threadwork-settings-whoami').waitFor();
    await checkBothThemes(page, 'settings');
    await page.close();
  });

  it('creates a key + secret by default, named for the extension and Zapier, and scoped keys of both kinds', async () => {
    const page = await openOptions(browser);
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.locator('[data-testid="threadwork-key"][data-key-id="key_full"]').waitFor();
    const type = page.getByTestId('threadwork-key-type');
    expect(await type.inputValue()).toBe('legacy');
    expect(await type.locator('option:checked').textContent()).toContain('for this extension and Zapier');

    await page.getByTestId('threadwork-key-name').fill('Zapier');
    await page.getByTestId('threadwork-key-create').click();
    await page.getByTestId('threadwork-key-secret').waitFor();
    const zapier = (await api.apiKeys.list()).data.find((key) => key.name === 'Zapier');
    expect(zapier?.type).toBe('legacy');
    // A key + secret takes scopes too.
    await page.getByTestId('threadwork-key-name').fill('Reader');
    await page.getByRole('checkbox', { name: 'boards.read' }).check();
    await page.getByRole('checkbox', { name: 'tasks.read' }).check();
    await page.getByTestId('threadwork-key-create').click();
    await expect
      .poll(async () => (await api.apiKeys.list()).data.find((key) => key.name === 'Reader'))
      .toMatchObject({ type: 'legacy', scopes: expect.arrayContaining(['boards.read', 'tasks.read']) });
    expect((await api.apiKeys.list()).data.find((key) => key.name === 'Reader')?.scopes).toHaveLength(2);
    for (const scope of ['boards.read', 'tasks.read'])
      await page.getByRole('checkbox', { name: scope }).uncheck();

    // Scopes: readable, grouped, opt-in ones marked; the chosen ones are the key's.
    const send = page.getByRole('checkbox', { name: 'email.send' });
    expect(await page.locator('label', { has: send }).textContent()).toMatch(/Send email.*opt-in/);
    await type.selectOption('v2');
    await page.getByTestId('threadwork-key-name').fill('Mailer');
    await send.check();
    await page.getByRole('checkbox', { name: 'tasks.read' }).check();
    await page.getByTestId('threadwork-key-create').click();
    await expect
      .poll(async () => (await api.apiKeys.list()).data.find((key) => key.name === 'Mailer')?.scopes.sort())
      .toEqual(['email.send', 'tasks.read']);
    const mailer = (await api.apiKeys.list()).data.find((key) => key.name === 'Mailer')!;
    await expect
      .poll(() => page.locator(`[data-testid="threadwork-key"][data-key-id="${mailer.id}"]`).textContent())
      .toMatch(/Scopes: (email\.send, tasks\.read|tasks\.read, email\.send)/);
    await checkBothThemes(page, 'api-tab');
    await page.close();
  });

  // Last: it signs the extension out.
  it("marks the extension's own key, and revokes it only after saying the extension will sign out", async () => {
    const page = await openOptions(browser);
    await page.getByRole('tab', { name: 'API keys' }).click();
    const own = page.locator('[data-testid="threadwork-key"][data-key-id="key_ext"]');
    await own.getByTestId('threadwork-key-self').waitFor();
    expect(await page.getByTestId('threadwork-key-self').count()).toBe(1);
    await own.getByTestId('threadwork-key-revoke').click();
    await expect.poll(() => own.textContent()).toMatch(/signs the extension out/);
    await page.screenshot({ path: join(SHOTS, 'api-tab-revoke-own-key.png'), fullPage: true });
    expect((await api.apiKeys.list()).data.some((key) => key.id === 'key_ext')).toBe(true);
    await own.getByTestId('threadwork-key-revoke').click();
    await page.getByTestId('threadwork-signed-out').waitFor();
    expect((await api.apiKeys.list()).data.some((key) => key.id === 'key_ext')).toBe(false);
    await page.close();

    // Signed out: the mailbox says so (not "not set up yet") and points to the settings, and the welcome is back.
    const mailbox = await openPanel(browser, 'FMfcgzQXJlunch');
    const error = panel(mailbox).getByTestId('threadwork-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('signed_out');
    expect(await error.textContent()).toContain('the key it signed in with was revoked');
    expect(await error.getByRole('button', { name: 'Open settings' }).count()).toBe(1);
    expect(await error.getByTestId('threadwork-retry').count()).toBe(0);
    await mailbox.close();
    const options = await openOptions(browser);
    await options.getByTestId('threadwork-welcome').waitFor();
    await options.close();
  });
});
