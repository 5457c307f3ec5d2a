// @vitest-environment node
/**
 * The task panel as a mailbox user meets it, in a real Chromium on the saved mailbox page: where the task
 * lands, once; the service slow, hung or down (through a loopback proxy in front of the live reference
 * server); keyboard, layout, dark theme, a narrow window and axe-core. Screenshots go to test/screenshots/.
 */
import { join } from 'node:path';
import type { ThreadworkClient } from '@threadwork/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PANEL_CONTEXT, seriousViolations } from './helpers/axe.ts';
import {
  BROWSER_TESTS,
  configure,
  type LoadedBrowser,
  launchWithExtension,
  MAILBOX_URL,
  openPanel,
  openThread,
} from './helpers/browser.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import { type ServiceProxy, startProxy } from './helpers/proxy.ts';
import { type RunningServer, SEED } from './helpers/server.ts';

const ROOF = 'FMfcgzQXJroof';
const LUNCH = 'FMfcgzQXJlunch';

let browser: LoadedBrowser;
let server: RunningServer;
let proxy: ServiceProxy;
let api: ThreadworkClient;

liveSuite(BROWSER_TESTS, launchWithExtension, (live) => {
  ({ browser, server, api } = live);
});

beforeAll(async () => {
  if (!BROWSER_TESTS) return;
  proxy = await startProxy(server.origin);
  // The extension talks to the service through the proxy, which each test makes slow, hung or down.
  await (await configure(browser, proxy.origin)).close();
});

afterAll(async () => {
  await proxy?.stop();
});

/** Every task id of the seed's Roadmap board (the Garage team is unpaid: nothing can be made there). */
async function allTaskIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const task of api.tasks.list({ board_id: SEED.board })) ids.push(task.id);
  return ids.sort();
}

async function linkedIds(threadId: string): Promise<string[]> {
  return ((await api.emailThreads.get(threadId)).linked_tasks ?? []).map((task) => task.id);
}

/** The panel ready to create: the list picker holds the seed's lists. */
async function readyPanel(token: string): Promise<Page> {
  const page = await openPanel(browser, token);
  await expect.poll(() => page.getByTestId('threadwork-list').locator('option').count()).toBe(2);
  return page;
}

/** Which element of ours holds the keyboard: the host's name and the focused control's test id or tag. */
function focusInfo(page: Page) {
  return page.evaluate(() => {
    const host = document.activeElement;
    const inner = host?.shadowRoot?.activeElement ?? null;
    return {
      host: host?.getAttribute('data-threadwork-host') ?? host?.tagName ?? null,
      inner: inner?.getAttribute('data-testid') ?? inner?.tagName ?? null,
    };
  });
}

const axeViolations = (page: Page) => seriousViolations(page, PANEL_CONTEXT);

describe.runIf(BROWSER_TESTS)('the task panel in the mailbox', () => {
  it('creates only where the pickers say: an unpaid team disables Create, creates nothing and is never remembered', async () => {
    proxy.set({ kind: 'pass' });
    // A successful create in Acme › Roadmap › Doing makes that the remembered default.
    const first = await readyPanel(ROOF);
    await first.getByTestId('threadwork-list').selectOption(SEED.doing);
    await first.getByTestId('threadwork-submit').click();
    await first.getByTestId('threadwork-confirmation').waitFor();
    await first.close();

    const before = await allTaskIds();
    const page = await readyPanel(LUNCH);
    await page.getByTestId('threadwork-team').selectOption(SEED.unpaidTeam);
    const submit = page.getByTestId('threadwork-submit');
    await expect.poll(() => submit.isDisabled()).toBe(true);
    const error = page.getByTestId('threadwork-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('subscription');
    await error.getByTestId('threadwork-retry').waitFor();
    // Board and List say why they are empty; they are never blank boxes.
    expect(await page.getByTestId('threadwork-board').locator('option').first().textContent()).toContain(
      'Unavailable',
    );
    await page.getByTestId('threadwork-panel').screenshot({ path: join(SHOTS, 'panel-unpaid-team.png') });
    // Neither a click nor Ctrl+Enter creates anything.
    await submit.click({ force: true });
    await page.getByTestId('threadwork-title').press('Control+Enter');
    await page.waitForTimeout(500);
    expect(await allTaskIds()).toEqual(before);
    await page.close();

    // The default is still the last successful create, not the unpaid team.
    const next = await readyPanel(LUNCH);
    expect(await next.getByTestId('threadwork-team').inputValue()).toBe(SEED.team);
    expect(await next.getByTestId('threadwork-list').inputValue()).toBe(SEED.doing);
    // Back from the unpaid team: Create comes back only once board and list are answered again.
    await next.getByTestId('threadwork-team').selectOption(SEED.unpaidTeam);
    await next.getByTestId('threadwork-team').selectOption(SEED.team);
    await expect.poll(() => next.getByTestId('threadwork-submit').isEnabled()).toBe(true);
    expect(await next.getByTestId('threadwork-list').inputValue()).toBe(SEED.doing);
    await next.close();
  });

  it('turns into the confirmation after success: no second task without "Create another"', async () => {
    proxy.set({ kind: 'pass' });
    const before = await linkedIds(SEED.lunch.id);
    const page = await readyPanel(LUNCH);
    await page.getByTestId('threadwork-title').fill('Book the table');
    await page.getByTestId('threadwork-submit').click();
    const confirmation = page.getByTestId('threadwork-confirmation');
    await expect.poll(() => confirmation.textContent()).toContain('Book the table');
    // The form is gone: a second click has nothing to click, and Ctrl+Enter creates nothing.
    expect(await page.getByTestId('threadwork-submit').count()).toBe(0);
    expect(await confirmation.getByRole('button', { name: 'Open', exact: true }).count()).toBe(1);
    await page.keyboard.press('Control+Enter');
    await page.waitForTimeout(400);
    expect((await linkedIds(SEED.lunch.id)).length).toBe(before.length + 1);
    // The keyboard stayed in the panel through the create.
    expect((await focusInfo(page)).host).toBe('panel');
    await page.getByTestId('threadwork-panel').screenshot({ path: join(SHOTS, 'panel-confirmation.png') });

    await page.getByTestId('threadwork-create-another').click();
    await expect.poll(() => page.getByTestId('threadwork-title').inputValue()).toBe('Lunch on Friday?');
    await page.getByTestId('threadwork-submit').click();
    await confirmation.waitFor();
    expect((await linkedIds(SEED.lunch.id)).length).toBe(before.length + 2);
    await page.close();
  });

  it('with the service down: a short human message, no secret or URL, Retry and the settings, unknown not "none"', async () => {
    // Saving again drops the session token, so the panel's first call is the token request with the secret.
    await (await configure(browser, proxy.origin)).close();
    proxy.set({ kind: 'down' });
    const page = await openPanel(browser, ROOF);
    const error = page.getByTestId('threadwork-error');
    const panel = page.getByTestId('threadwork-panel');
    await expect.poll(() => error.getAttribute('data-kind'), { timeout: 15_000 }).toBe('unreachable');
    const text = (await panel.textContent()) ?? '';
    expect(text).not.toContain(SEED.credentials.apiSecret);
    expect(text).not.toContain('api_secret');
    expect(text).not.toMatch(/https?:\/\//);
    expect(text).not.toContain('None yet.');
    expect(await error.getByRole('button', { name: 'Open settings' }).count()).toBe(1);
    // Nothing overflows the panel sideways.
    const overflow = await panel.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await panel.screenshot({ path: join(SHOTS, 'panel-service-down.png') });

    // The service is back: Retry fills the pickers and the thread's tasks.
    proxy.set({ kind: 'pass' });
    await error.getByTestId('threadwork-retry').click();
    await expect.poll(() => page.getByTestId('threadwork-list').locator('option').count()).toBe(2);
    expect(await error.count()).toBe(0);
    await expect.poll(() => page.getByTestId('threadwork-submit').isEnabled()).toBe(true);
    await page.close();
  });

  it('shows progress after about a second when the service is slow or hung, never blank pickers', async () => {
    proxy.set({ kind: 'slow', ms: 2500 });
    const page = await openPanel(browser, ROOF);
    const progress = page.getByTestId('threadwork-progress');
    await page.waitForTimeout(300);
    expect(await progress.count()).toBe(0);
    expect(await page.getByTestId('threadwork-team').locator('option').first().textContent()).toBe(
      'Loading…',
    );
    await progress.waitFor({ timeout: 2000 });
    expect(await progress.textContent()).toContain('Loading teams');
    await page.getByTestId('threadwork-panel').screenshot({ path: join(SHOTS, 'panel-slow.png') });
    await expect
      .poll(() => page.getByTestId('threadwork-list').locator('option').count(), { timeout: 20_000 })
      .toBe(2);
    await expect.poll(() => progress.count(), { timeout: 5000 }).toBe(0);
    await page.close();

    proxy.set({ kind: 'hang' });
    const hung = await openPanel(browser, LUNCH);
    await hung.getByTestId('threadwork-progress').waitFor({ timeout: 2000 });
    expect(await hung.getByTestId('threadwork-submit').isDisabled()).toBe(true);
    expect(await hung.getByTestId('threadwork-board').locator('option').first().textContent()).not.toBe('');
    await hung.close();
    proxy.set({ kind: 'pass' });
  });

  it('keeps the keyboard: focus in on open, Tab stays inside, Escape from anywhere, focus back to the button', async () => {
    proxy.set({ kind: 'pass' });
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    await openThread(page, ROOF);
    const button = page.getByTestId('threadwork-create-task');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    await page.getByTestId('threadwork-panel').waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => focusInfo(page)).toEqual({ host: 'panel', inner: 'threadwork-title' });
    await expect.poll(() => page.getByTestId('threadwork-list').locator('option').count()).toBe(2);

    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      expect((await focusInfo(page)).host).toBe('panel');
    }
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Shift+Tab');
      expect((await focusInfo(page)).host).toBe('panel');
    }
    // A click on the panel's heading (no control there), then Escape: the panel closes.
    await page.getByTestId('threadwork-panel').getByRole('heading', { name: 'Create task' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('threadwork-panel').count()).toBe(0);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await focusInfo(page)).toEqual({ host: 'button', inner: 'threadwork-create-task' });
    // Enter on the focused button opens it again; the close button sends focus back too.
    await page.keyboard.press('Enter');
    await page.getByTestId('threadwork-panel').waitFor();
    await page.getByTestId('threadwork-panel').getByRole('button', { name: 'Close' }).click();
    expect(await focusInfo(page)).toEqual({ host: 'button', inner: 'threadwork-create-task' });
    await page.close();
  });

  it('looks native: the button sits in the toolbar row, names are whole, dark follows the mailbox, 700 px leaves the thread usable, axe is clean', async () => {
    proxy.set({ kind: 'pass' });
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    await openThread(page, ROOF);
    const button = page.getByTestId('threadwork-create-task');
    await button.waitFor();
    const layout = await page.evaluate(() => {
      const toolbar = document.querySelector<HTMLElement>('#view-FMfcgzQXJroof [gh="mtb"]')!;
      const host = toolbar.querySelector<HTMLElement>('[data-threadwork-host="button"]')!;
      const archive = toolbar.querySelector('[aria-label="Archive"]')!.getBoundingClientRect();
      const control = host.shadowRoot!.querySelector('button')!.getBoundingClientRect();
      const withButton = toolbar.getBoundingClientRect().height;
      host.style.display = 'none';
      const without = toolbar.getBoundingClientRect().height;
      host.style.display = '';
      return {
        grew: withButton - without,
        height: control.height,
        centre: control.top + control.height / 2 - (archive.top + archive.height / 2),
      };
    });
    expect(layout.grew).toBe(0);
    expect(layout.height).toBeLessThanOrEqual(40);
    expect(Math.abs(layout.centre)).toBeLessThanOrEqual(2);
    await page.locator('#view-FMfcgzQXJroof .G-atb').screenshot({ path: join(SHOTS, 'toolbar.png') });

    await button.click();
    const assignee = page.getByTestId('threadwork-assignee');
    await expect.poll(() => assignee.locator('option').count()).toBe(3);
    await assignee.selectOption({ label: 'Avery Operator' });
    // The whole name fits in the picker (text width against the box minus padding and arrow).
    const fits = await assignee.evaluate((select: HTMLSelectElement) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.textContent = select.selectedOptions[0]!.textContent;
      select.getRootNode().appendChild(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      return select.clientWidth - 40 - text;
    });
    expect(fits).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('threadwork-panel').screenshot({ path: join(SHOTS, 'panel-light.png') });

    // The mailbox switches to a dark theme: the panel and the button follow on their next showing.
    await page.evaluate(() => document.body.classList.add('dark-theme'));
    await page.keyboard.press('Escape');
    await openThread(page, LUNCH);
    await button.click();
    await expect.poll(() => page.getByTestId('threadwork-list').locator('option').count()).toBe(2);
    const background = await page
      .getByTestId('threadwork-panel')
      .evaluate((panel) => getComputedStyle(panel).backgroundColor);
    expect(background).toBe('rgb(45, 47, 49)');
    expect(await button.evaluate((control) => getComputedStyle(control).backgroundColor)).toBe(
      'rgb(0, 74, 119)',
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'mailbox-dark.png') });

    // A 700 px window: the thread's subject and first lines stay visible and clickable beside the panel.
    await page.setViewportSize({ width: 700, height: 800 });
    const usable = await page.evaluate(() => {
      const view = document.getElementById('view-FMfcgzQXJlunch')!;
      return [view.querySelector('h2')!, view.querySelector('.a3s')!].map((element) => {
        const rect = element.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        return hit === element || element.contains(hit);
      });
    });
    expect(usable).toEqual([true, true]);
    await page.screenshot({ path: join(SHOTS, 'mailbox-700px.png') });
    await page.close();
  });

  it('assigns the new task to a board member, with a quick due date', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(ROOF);
    await page.getByTestId('threadwork-title').fill('Check the roof quote');
    await expect.poll(() => page.getByTestId('threadwork-assignee').locator('option').count()).toBe(3);
    await page.getByTestId('threadwork-assignee').selectOption('avery@example.com');
    await page.getByRole('button', { name: 'Tomorrow', exact: true }).click();
    const tomorrow = await page.evaluate(() => {
      const day = new Date();
      day.setDate(day.getDate() + 1);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    });
    expect(await page.getByTestId('threadwork-due').inputValue()).toBe(tomorrow);
    await page.getByTestId('threadwork-submit').click();
    const confirmation = page.getByTestId('threadwork-confirmation');
    await expect.poll(() => confirmation.textContent()).toContain('Avery Operator');
    const task = (await api.tasks.list({ board_id: SEED.board })).data.find(
      (candidate) => candidate.title === 'Check the roof quote',
    );
    expect(task?.assignee?.email).toBe('avery@example.com');
    const due = await page.evaluate((iso) => {
      const day = new Date(iso);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    }, task!.due_at!);
    expect(due).toBe(tomorrow);
    await page.close();
  });

  it('adds this thread to an existing task found by its title', async () => {
    proxy.set({ kind: 'pass' });
    const task = await api.tasks.create({ list_id: SEED.todo, title: 'Gutter repair estimate' });
    const page = await readyPanel(ROOF);
    await page.getByTestId('threadwork-existing-task').fill('gutter rep');
    const result = page.locator(`[data-testid="threadwork-existing-result"][data-task-id="${task.id}"]`);
    await result.waitFor();
    await page.getByTestId('threadwork-link-existing').click();
    await page.getByTestId('threadwork-link-confirmation').waitFor();
    expect((await api.tasks.get(task.id)).thread_ids).toContain(SEED.roof.id);
    await page.locator(`[data-testid="threadwork-linked-task"][data-task-id="${task.id}"]`).waitFor();
    // Enter in the search links too, and never creates a task.
    const before = await allTaskIds();
    await page.getByTestId('threadwork-existing-task').fill('Gutter repair estimate');
    await result.waitFor();
    await page.getByTestId('threadwork-existing-task').press('Enter');
    await page.getByTestId('threadwork-link-confirmation').waitFor();
    expect(await allTaskIds()).toEqual(before);
    await page.getByTestId('threadwork-panel').screenshot({ path: join(SHOTS, 'panel-existing-task.png') });
    await page.close();
  });
});
