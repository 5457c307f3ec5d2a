// @vitest-environment node
/**
 * The built extension in a real Chromium: the mailbox page served at its real URL, the reference server
 * live on loopback. Screenshots go to test/screenshots/ (not committed) for a look at the UI.
 */
import { join } from 'node:path';
import type { ThreadworkClient } from '@threadwork/shared';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_TESTS,
  configure as configureIn,
  type LoadedBrowser,
  launchWithExtension,
  MAILBOX_URL,
  openPanel as openPanelIn,
  openThread,
  PANEL_FRAME,
  panel,
} from './helpers/browser.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import { type RunningServer, SEED } from './helpers/server.ts';

/** The two calls of `chrome.tabs` the shortcut test makes inside the service worker. */
interface TabsApi {
  query(query: { url: string }): Promise<{ id?: number }[]>;
  sendMessage(tabId: number, message: unknown): Promise<unknown>;
}

let browser: LoadedBrowser;
let server: RunningServer;
let api: ThreadworkClient;
liveSuite(BROWSER_TESTS, launchWithExtension, (live) => {
  ({ browser, server, api } = live);
});

const openPanel = (token: string) => openPanelIn(browser, token);
const configure = (origin: string, overrides: { apiSecret?: string } = {}) =>
  configureIn(browser, origin, overrides);

describe.runIf(BROWSER_TESTS)('the extension in the mailbox', () => {
  it('says it is not configured, with a way to the settings, before any setup', async () => {
    const page = await openPanel('FMfcgzQXJlunch');
    const error = panel(page).getByTestId('threadwork-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('not_configured');
    await expect.poll(() => error.textContent()).toContain('Open settings');
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-not-configured.png') });
    await page.close();
  });

  it('shows bad credentials and an unreachable service in the settings error area', async () => {
    const page = await configure(server.origin, { apiSecret: 'wrong-secret' });
    // Save signs in with what it saved, and says it failed: never "Saved." alone.
    const error = page.getByTestId('threadwork-settings-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('bad_credentials');
    await page.getByTestId('threadwork-settings-test').click();
    await expect.poll(() => error.getAttribute('data-kind')).toBe('bad_credentials');
    await page.screenshot({ path: join(SHOTS, 'settings-bad-credentials.png'), fullPage: true });
    await page.close();

    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    const down = await configure('http://127.0.0.1:9');
    await down.getByTestId('threadwork-settings-test').click();
    await expect
      .poll(() => down.getByTestId('threadwork-settings-error').getAttribute('data-kind'))
      .toBe('unreachable');
    await down.screenshot({ path: join(SHOTS, 'settings-unreachable.png'), fullPage: true });
    await down.close();
  });

  it('configures, tests the connection and shows who you are', async () => {
    const page = await configure(server.origin);
    await page.getByTestId('threadwork-settings-test').click();
    await expect
      .poll(() => page.getByTestId('threadwork-settings-whoami').textContent())
      .toContain('Ada Lovelace');
    await page.screenshot({ path: join(SHOTS, 'settings.png'), fullPage: true });
    // Opened again later, the page says whom it connects as.
    await page.reload();
    await expect
      .poll(() => page.getByTestId('threadwork-settings-whoami').textContent())
      .toContain('Ada Lovelace');
    expect(await page.getByTestId('threadwork-settings-saved').count()).toBe(0);
    await page.close();
  });

  it('puts the button in the open conversation toolbar only, and follows navigation', async () => {
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    const button = page.getByTestId('threadwork-create-task');
    await expect.poll(() => button.count()).toBe(0);
    await openThread(page, 'FMfcgzQXJroof');
    await button.waitFor();
    const place = await page.evaluate(() => {
      const host = document.querySelector('[data-threadwork-host="button"]');
      return host?.parentElement?.closest('[role="main"]')?.id;
    });
    expect(place).toBe('view-FMfcgzQXJroof');
    await page.evaluate(() => {
      location.hash = '#inbox';
    });
    await expect.poll(() => button.count()).toBe(0);

    // Another thread: one button, in that thread's view (the earlier view is kept, hidden, without it).
    await openThread(page, 'FMfcgzQXJlunch');
    await button.waitFor();
    expect(await button.count()).toBe(1);
    expect(
      await page.evaluate(
        () =>
          document.querySelector('[data-threadwork-host="button"]')?.parentElement?.closest('[role="main"]')
            ?.id,
      ),
    ).toBe('view-FMfcgzQXJlunch');

    // The mailbox re-renders its toolbar: the button comes back.
    await page.evaluate(() => {
      const toolbar = document.querySelector('#view-FMfcgzQXJlunch [gh="mtb"]')!;
      toolbar.innerHTML = '<div role="button" aria-label="Archive">▣</div>';
    });
    await expect.poll(() => button.count()).toBe(1);

    // A conversation without a toolbar gets the floating button.
    await openThread(page, 'FMfcgzQXJsolo');
    await expect
      .poll(() =>
        page.evaluate(
          () => document.querySelector('[data-threadwork-host="button"]')?.parentElement?.tagName,
        ),
      )
      .toBe('BODY');
    expect(await button.getAttribute('class')).toContain('tw-floating');
    await page.close();
  });

  it('creates a task from the thread (a double click makes one), lists it and marks it complete', async () => {
    const page = await openPanel('FMfcgzQXJroof');
    const title = panel(page).getByTestId('threadwork-title');
    // The subject is read as text: markup in it stays characters.
    await expect.poll(() => title.inputValue()).toBe('Quote for the roof <b>🏠</b>');
    await expect.poll(() => panel(page).getByTestId('threadwork-list').locator('option').count()).toBe(2);
    await panel(page).getByTestId('threadwork-list').selectOption(SEED.doing);
    await panel(page).getByTestId('threadwork-notes').fill('Call Bob back');
    await panel(page).getByTestId('threadwork-position').selectOption('bottom');
    await panel(page).getByTestId('threadwork-submit').dblclick();
    const confirmation = panel(page).getByTestId('threadwork-confirmation');
    await expect.poll(() => confirmation.textContent()).toContain('Roadmap');
    expect(await confirmation.textContent()).toContain('Doing');

    const tasks = (await api.tasks.list({ list_id: SEED.doing })).data;
    expect(tasks).toHaveLength(1);
    const task = tasks[0]!;
    expect(task.title).toBe('Quote for the roof <b>🏠</b>');
    expect(task.notes).toBe('Call Bob back');
    expect(task.thread_ids).toContain(SEED.roof.id);
    const thread = await api.emailThreads.get(SEED.roof.id);
    expect(thread.linked_tasks?.map((linked) => linked.id)).toContain(task.id);

    const linked = panel(page).locator(`[data-testid="threadwork-linked-task"][data-task-id="${task.id}"]`);
    await linked.waitFor();
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-created.png') });
    await linked.getByTestId('threadwork-complete').click();
    await expect.poll(() => linked.getAttribute('data-completed')).toBe('true');
    expect((await api.tasks.get(task.id)).completed).toBe(true);

    // The next panel remembers the list of this successful create.
    await openThread(page, 'FMfcgzQXJlunch');
    await expect.poll(() => panel(page).getByTestId('threadwork-list').inputValue()).toBe(SEED.doing);
    await page.close();
  });

  it('opens the same settings inside the mailbox panel', async () => {
    const page = await openPanel('FMfcgzQXJlunch');
    await panel(page).getByTestId('threadwork-panel').getByRole('button', { name: 'Settings' }).click();
    await expect
      .poll(() => panel(page).getByTestId('threadwork-settings-origin').inputValue())
      .toBe(server.origin);
    await panel(page).getByTestId('threadwork-settings-test').click();
    await expect
      .poll(() => panel(page).getByTestId('threadwork-settings-whoami').textContent())
      .toContain('ada@example.com');
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-settings.png') });
    await page.close();
  });

  it('manages API keys in the API tab', async () => {
    const page = await browser.context.newPage();
    await page.goto(`chrome-extension://${browser.extensionId}/options.html`);
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.locator('[data-testid="threadwork-key"][data-key-id="key_full"]').waitFor();
    await page.getByTestId('threadwork-key-name').fill('Laptop');
    await page.getByTestId('threadwork-key-type').selectOption('v2');
    await page.getByRole('checkbox', { name: 'boards.read' }).check();
    await page.getByTestId('threadwork-key-create').click();
    const secret = await page.getByTestId('threadwork-key-secret').textContent();
    expect(secret?.length).toBeGreaterThan(8);
    const created = (await api.apiKeys.list()).data.find((key) => key.name === 'Laptop');
    expect(created?.scopes).toEqual(['boards.read']);
    await page.screenshot({ path: join(SHOTS, 'settings-api-keys.png'), fullPage: true });
    const revoke = page.locator(`[data-key-id="${created!.id}"] [data-testid="threadwork-key-revoke"]`);
    await revoke.click();
    await revoke.click();
    await expect
      .poll(async () => (await api.apiKeys.list()).data.some((key) => key.id === created!.id))
      .toBe(false);
    await page.close();
  });

  it('opens the panel when the background relays the keyboard shortcut', async () => {
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    await openThread(page, 'FMfcgzQXJroof');
    await page.getByTestId('threadwork-create-task').waitFor();
    // What the commands listener sends to the active tab (the shortcut itself cannot be pressed headless).
    const worker = browser.context.serviceWorkers()[0]!;
    await worker.evaluate(async () => {
      const { tabs } = (globalThis as unknown as { chrome: { tabs: TabsApi } }).chrome;
      const [tab] = await tabs.query({ url: 'https://mail.google.com/*' });
      await tabs.sendMessage(tab!.id!, { type: 'panel.open' });
    });
    await panel(page).getByTestId('threadwork-panel').waitFor();
    expect(await panel(page).getByTestId('threadwork-title').inputValue()).toBe(
      'Quote for the roof <b>🏠</b>',
    );
    await page.close();
  });

  it('keeps typing in the panel away from the page shortcuts (its own frame: no key of it reaches the page)', async () => {
    const page = await openPanel('FMfcgzQXJlunch');
    const title = panel(page).getByTestId('threadwork-title');
    await title.fill('');
    await page.evaluate(() => {
      (window as unknown as { pageKeys: string[] }).pageKeys.length = 0;
    });
    await title.pressSequentially('cej#/kx?!');
    await panel(page).getByTestId('threadwork-notes').press('e');
    expect(await title.inputValue()).toBe('cej#/kx?!');
    const reached = await page.evaluate(() => (window as unknown as { pageKeys: string[] }).pageKeys);
    expect(reached).toEqual([]);
    // Escape closes the panel (its frame stays, hidden, with what was typed).
    await title.press('Escape');
    await expect.poll(() => page.locator(PANEL_FRAME).isVisible()).toBe(false);
    expect(await page.evaluate(() => (window as unknown as { pageKeys: string[] }).pageKeys)).toEqual([]);

    // Outside the panel, the page still gets its keys.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('j');
    expect(
      await page.evaluate(() => (window as unknown as { pageKeys: string[] }).pageKeys.length),
    ).toBeGreaterThan(0);
    await page.close();
  });
});

describe.runIf(BROWSER_TESTS)('what the mailbox page may read', () => {
  it('finds no secret in any DOM a mailbox script can reach while the panel shows a new key’s secret', async () => {
    await (await configure(server.origin)).close();
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    // A script of the mailbox page listens to every message its window receives, from the start.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      window.addEventListener('message', (event) => seen.push(JSON.stringify(event.data)));
    });
    await openThread(page, 'FMfcgzQXJlunch');
    await page.getByTestId('threadwork-create-task').click();
    const view = panel(page);
    await view.getByTestId('threadwork-panel').getByRole('button', { name: 'Settings' }).click();
    // A secret typed into the connection form, not saved…
    await view.getByTestId('threadwork-settings-api-secret').fill('typed-secret-0123456789');
    // …and a new key's secret, shown once.
    await view.getByRole('tab', { name: 'API keys' }).click();
    await view.getByTestId('threadwork-key-name').fill('Isolation check');
    await view.getByTestId('threadwork-key-create').click();
    const secret = (await view.getByTestId('threadwork-key-secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(8);

    // Everything a script of the page can reach: its document, every open shadow root, every frame that
    // lets it in; text, attributes and form values.
    const reached = await page.evaluate(() => {
      const found: string[] = [];
      const refused: string[] = [];
      const visit = (root: Document | ShadowRoot) => {
        for (const element of Array.from(root.querySelectorAll('*'))) {
          found.push(element.textContent ?? '');
          for (const attribute of Array.from(element.attributes)) found.push(attribute.value);
          if ('value' in element) found.push(String((element as HTMLInputElement).value));
          if (element.shadowRoot !== null) visit(element.shadowRoot);
          if (element instanceof HTMLIFrameElement) {
            try {
              const inner = element.contentDocument ?? element.contentWindow?.document;
              if (inner) visit(inner);
              else refused.push(element.src);
            } catch {
              refused.push(element.src);
            }
          }
        }
      };
      visit(document);
      return { text: found.join('\n'), refused, messages: (window as unknown as { seen: string[] }).seen };
    });
    expect(reached.text).not.toContain(secret);
    expect(reached.text).not.toContain('typed-secret-0123456789');
    expect(reached.text).not.toContain(SEED.credentials.apiSecret);
    expect(reached.messages.join('\n')).not.toContain(secret);
    expect(reached.messages.join('\n')).not.toContain('typed-secret');
    // The panel's frame is the one place the page could not enter.
    expect(reached.refused).toEqual([expect.stringMatching(/^chrome-extension:\/\/[a-z]+\/panel\.html$/)]);
    await page.close();
  });
});

describe.runIf(BROWSER_TESTS)('an update under an open mailbox', () => {
  // Last: it reloads the extension.
  it('ends the old script’s work: its button and frame go at the next change of the page', async () => {
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    await openThread(page, 'FMfcgzQXJroof');
    await page.getByTestId('threadwork-create-task').click();
    await panel(page).getByTestId('threadwork-panel').waitFor();
    const hosts = () => page.evaluate(() => document.querySelectorAll('[data-threadwork-host]').length);
    expect(await hosts()).toBe(2);
    // What an update does to a running extension: its worker and pages restart, this page's script is orphaned.
    await browser.context
      .serviceWorkers()[0]!
      .evaluate(() =>
        (globalThis as unknown as { chrome: { runtime: { reload(): void } } }).chrome.runtime.reload(),
      )
      .catch(() => {});
    await page.waitForTimeout(500);
    // The page changes: the orphaned script notices, and takes its button and frame away instead of placing them.
    await openThread(page, 'FMfcgzQXJlunch');
    await expect.poll(hosts).toBe(0);
    await page.close();
  });
});
