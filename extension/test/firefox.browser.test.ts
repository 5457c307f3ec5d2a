// @vitest-environment node
/**
 * The set-up and create journeys in Firefox (Debian's firefox-esr over WebDriver BiDi, the firefox-mv3 test
 * build installed by the driver): the saved mailbox page at its real URL, a live reference server, set up
 * from the panel's own settings, "Create task", and the task on the server. The panel is the extension's
 * frame; Firefox gives a page in a frame no `permissions` API, so the panel asks the background whether the
 * service is reachable (in the test build it is: loopback is granted ahead) instead of asking the browser.
 */
import { join } from 'node:path';
import type { ThreadworkClient } from '@threadwork/shared';
import type { Frame } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { CREATE_TASK_SHORTCUT } from '../lib/shortcut.ts';
import { MAILBOX_URL } from './helpers/browser.ts';
import {
  FIREFOX_TESTS,
  firefoxPanelFrame,
  type LoadedFirefox,
  launchFirefoxWithExtension,
} from './helpers/firefox.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import { type RunningServer, SEED } from './helpers/server.ts';

let firefox: LoadedFirefox;
let server: RunningServer;
let api: ThreadworkClient;
liveSuite(FIREFOX_TESTS, launchFirefoxWithExtension, (live) => {
  ({ browser: firefox, server, api } = live);
});

/** An element of the panel by test id, and what it says. */
const byTestId = (frame: Frame, id: string) => frame.locator(`[data-testid="${id}"]`);
const attribute = (frame: Frame, id: string, name: string) =>
  frame.$eval(`[data-testid="${id}"]`, (element, name) => element.getAttribute(name), name).catch(() => null);
const text = (frame: Frame, id: string) =>
  frame.$eval(`[data-testid="${id}"]`, (element) => element.textContent).catch(() => null);

describe.runIf(FIREFOX_TESTS)('the extension in Firefox', () => {
  it('sets up from the panel and creates a task from the open thread, once', async () => {
    const page = await firefox.newMailboxPage();
    await page.goto(MAILBOX_URL);
    await page.evaluate(() => {
      location.hash = '#inbox/FMfcgzQXJroof';
    });
    await page.locator('>>> [data-testid="threadwork-create-task"]').click();
    const frame = await firefoxPanelFrame(page);

    // Not set up yet: the panel says so and its settings link opens the same settings form.
    await expect.poll(() => attribute(frame, 'threadwork-error', 'data-kind')).toBe('not_configured');
    await frame.locator('[data-testid="threadwork-error"] button').click();
    await byTestId(frame, 'threadwork-settings-origin').fill(server.origin);
    await byTestId(frame, 'threadwork-settings-email').fill(SEED.credentials.email);
    await byTestId(frame, 'threadwork-settings-api-key').fill(SEED.credentials.apiKey);
    await byTestId(frame, 'threadwork-settings-api-secret').fill(SEED.credentials.apiSecret);
    await byTestId(frame, 'threadwork-settings-key-name').fill(SEED.credentials.keyName);
    const pages = (await firefox.browser.pages()).length;
    await byTestId(frame, 'threadwork-settings-save').click();
    // Saved and signed in: access was there already, so nothing sent the user to another tab.
    await expect.poll(() => text(frame, 'threadwork-settings-whoami')).toContain('Ada Lovelace');
    expect(await text(frame, 'threadwork-settings-saved')).toBe('Saved.');
    expect(await frame.$('[data-testid="threadwork-grant-status"]')).toBeNull();
    expect((await firefox.browser.pages()).length).toBe(pages);

    // Back to the task: the subject as its title, the pickers filled from the live server.
    await frame.locator('[data-testid="threadwork-panel"] .tw-head button').click();
    await expect
      .poll(() =>
        frame.$eval('[data-testid="threadwork-title"]', (element) => (element as HTMLTextAreaElement).value),
      )
      .toBe('Quote for the roof <b>🏠</b>');
    await expect
      .poll(() => frame.$$eval('[data-testid="threadwork-list"] option', (options) => options.length))
      .toBe(2);
    await frame.$eval(
      '[data-testid="threadwork-list"]',
      (select, list) => {
        (select as HTMLSelectElement).value = list;
        select.dispatchEvent(new Event('change', { bubbles: true }));
      },
      SEED.doing,
    );
    // The notes hold the open message and a link back, read in Firefox's own layout.
    expect(
      await frame.$eval(
        '[data-testid="threadwork-notes"]',
        (element) => (element as HTMLTextAreaElement).value,
      ),
    ).toContain('From Bob Stone <bob@stone.test>:\nHi Ada, the quote for the roof is attached.');
    // Firefox's own commands.getAll(), read at run time: the shortcut is set there too.
    await expect
      .poll(() => attribute(frame, 'threadwork-shortcut', 'data-shortcut'))
      .toBe(CREATE_TASK_SHORTCUT);

    // A double click makes one task.
    await frame.click('[data-testid="threadwork-submit"]', { count: 2 });
    await expect.poll(() => text(frame, 'threadwork-confirmation')).toContain('Doing');
    const tasks = (await api.tasks.list({ list_id: SEED.doing })).data;
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ title: 'Quote for the roof <b>🏠</b>' });
    expect(tasks[0]!.thread_ids).toContain(SEED.roof.id);
    await page.screenshot({ path: join(SHOTS, 'firefox-panel-created.png') });
    await page.close();
  });
});
