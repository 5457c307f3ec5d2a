// @vitest-environment node
/**
 * The create journey in Firefox (Debian's firefox-esr over WebDriver BiDi, the firefox-mv3 test build
 * installed by the driver): the saved mailbox page at its real URL, a live reference server, set up from
 * the panel's own settings, "Create task", and the task on the server. The same journey as Chromium's.
 */
import { join } from 'node:path';
import type { ThreadworkClient } from '@threadwork/shared';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { CREATE_TASK_SHORTCUT } from '../lib/shortcut.ts';
import { MAILBOX_URL } from './helpers/browser.ts';
import { FIREFOX_TESTS, type LoadedFirefox, launchFirefoxWithExtension } from './helpers/firefox.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import { type RunningServer, SEED } from './helpers/server.ts';

let firefox: LoadedFirefox;
let server: RunningServer;
let api: ThreadworkClient;
liveSuite(FIREFOX_TESTS, launchFirefoxWithExtension, (live) => {
  ({ browser: firefox, server, api } = live);
});

/** An element of ours by test id, inside the open shadow roots. */
const byTestId = (page: Page, id: string) => page.locator(`>>> [data-testid="${id}"]`);
const attribute = (page: Page, id: string, name: string) =>
  page.$eval(`>>> [data-testid="${id}"]`, (element, name) => element.getAttribute(name), name);

describe.runIf(FIREFOX_TESTS)('the extension in Firefox', () => {
  it('sets up from the panel and creates a task from the open thread, once', async () => {
    const page = await firefox.newMailboxPage();
    await page.goto(MAILBOX_URL);
    await page.evaluate(() => {
      location.hash = '#inbox/FMfcgzQXJroof';
    });
    await byTestId(page, 'threadwork-create-task').click();

    // Not set up yet: the panel says so and its settings link opens the same settings form.
    await expect.poll(() => attribute(page, 'threadwork-error', 'data-kind')).toBe('not_configured');
    await page.locator('>>> [data-testid="threadwork-error"] button').click();
    await byTestId(page, 'threadwork-settings-origin').fill(server.origin);
    await byTestId(page, 'threadwork-settings-email').fill(SEED.credentials.email);
    await byTestId(page, 'threadwork-settings-api-key').fill(SEED.credentials.apiKey);
    await byTestId(page, 'threadwork-settings-api-secret').fill(SEED.credentials.apiSecret);
    await byTestId(page, 'threadwork-settings-key-name').fill(SEED.credentials.keyName);
    await byTestId(page, 'threadwork-settings-save').click();
    await byTestId(page, 'threadwork-settings-saved').wait();
    await byTestId(page, 'threadwork-settings-test').click();
    await expect
      .poll(() =>
        page.$eval('>>> [data-testid="threadwork-settings-whoami"]', (element) => element.textContent),
      )
      .toContain('Ada Lovelace');

    // Back to the task: the subject as its title, the pickers filled from the live server.
    await page.locator('>>> [data-testid="threadwork-panel"] .tw-head button').click();
    await expect
      .poll(() =>
        page.$eval(
          '>>> [data-testid="threadwork-title"]',
          (element) => (element as HTMLTextAreaElement).value,
        ),
      )
      .toBe('Quote for the roof <b>🏠</b>');
    await expect
      .poll(() => page.$$eval('>>> [data-testid="threadwork-list"] option', (options) => options.length))
      .toBe(2);
    await page.$eval(
      '>>> [data-testid="threadwork-list"]',
      (select, list) => {
        (select as HTMLSelectElement).value = list;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      },
      SEED.doing,
    );
    // Firefox's own commands.getAll(), read at run time: the shortcut is set there too.
    await expect
      .poll(() => attribute(page, 'threadwork-shortcut', 'data-shortcut'))
      .toBe(CREATE_TASK_SHORTCUT);

    await byTestId(page, 'threadwork-submit').click();
    await expect
      .poll(() => page.$eval('>>> [data-testid="threadwork-confirmation"]', (element) => element.textContent))
      .toContain('Doing');
    const tasks = (await api.tasks.list({ list_id: SEED.doing })).data;
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ title: 'Quote for the roof <b>🏠</b>' });
    expect(tasks[0]!.thread_ids).toContain(SEED.roof.id);
    const panel = await page.$('>>> [data-testid="threadwork-panel"]');
    await panel!.screenshot({ path: join(SHOTS, 'firefox-panel-created.png') });
    await page.close();
  });
});
