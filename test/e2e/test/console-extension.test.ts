// The extension's test build on the console's mailbox page, end to end on one machine without a mailbox
// account: the server runs with --console, the real test extension (its mailbox script also matches the
// console's loopback /mail pages) creates a task from the open thread, the console page shows the link
// live, and the extension's "Open" lands on the console's task page.
import { ThreadworkClient } from '@threadwork/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_TESTS,
  buildTestExtension,
  type LoadedBrowser,
  launchWithExtension,
  panel,
} from '../../../extension/test/helpers/browser.ts';
import { type LiveServer, startLiveServer } from './helpers/live-server.ts';
import { CREDENTIALS, IDS, THREADS } from './helpers/seed.ts';

let server: LiveServer | undefined;
let browser: LoadedBrowser | undefined;
let client: ThreadworkClient;

beforeAll(async () => {
  if (!BROWSER_TESTS) return;
  [server] = await Promise.all([startLiveServer({ console: true }), buildTestExtension()]);
  browser = await launchWithExtension();
  client = new ThreadworkClient({ baseUrl: server.v2BaseUrl, apiKey: CREDENTIALS.full, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server) expect(await server.stop()).toBe(0);
});

async function configureExtension(origin: string): Promise<void> {
  const page = await browser!.context.newPage();
  await page.goto(`chrome-extension://${browser!.extensionId}/options.html`);
  await page.getByTestId('threadwork-settings-origin').fill(origin);
  await page.getByTestId('threadwork-settings-email').fill(CREDENTIALS.legacy.email);
  await page.getByTestId('threadwork-settings-api-key').fill(CREDENTIALS.legacy.apiKey);
  await page.getByTestId('threadwork-settings-api-secret').fill(CREDENTIALS.legacy.apiSecret);
  await page.getByTestId('threadwork-settings-key-name').fill(CREDENTIALS.legacy.apiKeyName);
  await page.getByTestId('threadwork-settings-save').click();
  await page.getByTestId('threadwork-settings-saved').waitFor();
  await page.close();
}

describe.runIf(BROWSER_TESTS)('the test extension on the console’s mailbox page', () => {
  it('creates a task from the open console thread, which the console then shows, and opens it there', async () => {
    const origin = server!.origin;
    await configureExtension(origin);
    const page = await browser!.context.newPage();
    await page.goto(`${origin}/mail/${THREADS.roof.id}`);
    await page.locator(`h2[data-legacy-thread-id="${THREADS.roof.id}"]`).waitFor();
    // The extension's button goes into the console's [gh=mtb] toolbar, as in the mailbox.
    const button = page.locator('[gh="mtb"]').getByTestId('threadwork-create-task');
    await button.click({ timeout: 8000 });
    // The panel is the extension's own frame over the page.
    const view = panel(page);
    const title = view.getByTestId('threadwork-title');
    await expect.poll(() => title.inputValue({ timeout: 5000 })).toBe(THREADS.roof.subject);
    await view.getByTestId('threadwork-team').selectOption(IDS.paidTeam, { timeout: 5000 });
    await view.getByTestId('threadwork-board').selectOption(IDS.board, { timeout: 5000 });
    await view.getByTestId('threadwork-list').selectOption(IDS.doing, { timeout: 5000 });
    await view.getByTestId('threadwork-submit').click();
    await expect.poll(() => view.getByTestId('threadwork-confirmation').textContent()).toContain('Doing');

    const created = (await client.tasks.list({ list_id: IDS.doing })).data.find(
      (task) => task.title === THREADS.roof.subject,
    );
    expect(created?.thread_ids).toContain(THREADS.roof.id);
    // The console's thread page follows the change live: the new linked task appears without a reload.
    await page.locator(`main a[href="/tasks/${created!.id}"]`).waitFor({ timeout: 2000 });

    const opened = browser!.context.waitForEvent('page');
    await view
      .locator(`[data-testid="threadwork-linked-task"][data-task-id="${created!.id}"]`)
      .getByTestId('threadwork-open')
      .click();
    const taskPage = await opened;
    await taskPage.waitForLoadState();
    expect(new URL(taskPage.url()).pathname).toBe(`/tasks/${created!.id}`);
    await expect
      .poll(() => taskPage.getByTestId('console-task-title').textContent())
      .toBe(THREADS.roof.subject);
  });
});
