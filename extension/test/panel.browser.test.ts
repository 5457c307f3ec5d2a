// @vitest-environment node
/**
 * The task panel as a mailbox user meets it, in a real Chromium on the saved mailbox page: where the task
 * lands, once; what the form offers and sends; the service slow, hung or down (through a loopback proxy in
 * front of the live reference server); keyboard, layout, dark theme, a narrow window and axe-core. The panel
 * is the extension's own frame: every look inside it goes through `panel(page)`. Screenshots go to
 * test/screenshots/.
 */
import { join } from 'node:path';
import type { ThreadworkClient } from '@threadwork/shared';
import { MAX_TITLE_LENGTH } from '@threadwork/shared/schemas';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRESS_AFTER_MS } from '../components/task/TaskPanel.tsx';
import { seriousViolations } from './helpers/axe.ts';
import {
  BROWSER_TESTS,
  configure,
  type LoadedBrowser,
  launchWithExtension,
  MAILBOX_URL,
  openPanel,
  openThread,
  PANEL_FRAME,
  panel,
  panelFrame,
} from './helpers/browser.ts';
import { liveSuite, SHOTS } from './helpers/live.ts';
import { type ServiceProxy, startProxy } from './helpers/proxy.ts';
import { type RunningServer, SEED } from './helpers/server.ts';

const ROOF = 'FMfcgzQXJroof';
const LUNCH = 'FMfcgzQXJlunch';
const OTHER = 'FMfcgzQXJother';
const LONG = 'FMfcgzQXJlong';

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

/** The panel ready to create: Create may send the team, board and list it shows. */
async function readyPanel(token: string): Promise<Page> {
  const page = await openPanel(browser, token);
  await expect.poll(() => panel(page).getByTestId('threadwork-submit').isEnabled()).toBe(true);
  return page;
}

/** The answers the panel keeps from its last use, forgotten: the next panel is a first use. */
async function forgetKeptAnswers(): Promise<void> {
  await browser.context
    .serviceWorkers()[0]!
    .evaluate(() =>
      (
        globalThis as unknown as { chrome: { storage: { local: { remove(key: string): Promise<void> } } } }
      ).chrome.storage.local.remove('panelAnswers'),
    );
}

/**
 * Which element holds the keyboard: our host in the page (`panel` holds the frame) and, inside it, the
 * focused control's test id or tag (inside the frame when the frame has the keyboard).
 */
async function focusInfo(page: Page): Promise<{ host: string | null; inner: string | null }> {
  const outer = await page.evaluate(() => {
    const host = document.activeElement;
    const inner = host?.shadowRoot?.activeElement ?? null;
    return {
      host: host?.getAttribute('data-threadwork-host') ?? host?.tagName ?? null,
      inner:
        inner?.tagName === 'IFRAME'
          ? 'FRAME'
          : (inner?.getAttribute('data-testid') ?? inner?.tagName ?? null),
    };
  });
  if (outer.inner !== 'FRAME') return outer;
  const inner = await (await panelFrame(page)).evaluate(() => {
    const active = document.activeElement;
    return active?.getAttribute('data-testid') ?? active?.tagName ?? null;
  });
  return { host: outer.host, inner };
}

const panelShown = (page: Page) => page.locator(PANEL_FRAME).isVisible();

describe.runIf(BROWSER_TESTS)('the task panel in the mailbox', () => {
  it('creates only where the pickers say: an unpaid team disables Create, creates nothing and is never remembered', async () => {
    proxy.set({ kind: 'pass' });
    // A successful create in Acme › Roadmap › Doing makes that the remembered default.
    const first = await readyPanel(ROOF);
    await panel(first).getByTestId('threadwork-list').selectOption(SEED.doing);
    await panel(first).getByTestId('threadwork-submit').click();
    await panel(first).getByTestId('threadwork-confirmation').waitFor();
    await first.close();

    const before = await allTaskIds();
    const page = await readyPanel(LUNCH);
    const view = panel(page);
    await view.getByTestId('threadwork-team').selectOption(SEED.unpaidTeam);
    const submit = view.getByTestId('threadwork-submit');
    await expect.poll(() => submit.isDisabled()).toBe(true);
    const error = view.getByTestId('threadwork-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('subscription');
    // Retry would only ask again what the service already answered: it is not offered.
    expect(await error.getByTestId('threadwork-retry').count()).toBe(0);
    // Board and List say why they are empty; they are never blank boxes.
    expect(await view.getByTestId('threadwork-board').locator('option').first().textContent()).toContain(
      'Unavailable',
    );
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-unpaid-team.png') });
    // Neither a click nor Ctrl+Enter creates anything.
    await submit.click({ force: true });
    await view.getByTestId('threadwork-title').press('Control+Enter');
    await page.waitForTimeout(500);
    expect(await allTaskIds()).toEqual(before);
    await page.close();

    // The default is still the last successful create, not the unpaid team.
    const next = await readyPanel(LUNCH);
    expect(await panel(next).getByTestId('threadwork-team').inputValue()).toBe(SEED.team);
    expect(await panel(next).getByTestId('threadwork-list').inputValue()).toBe(SEED.doing);
    // Back from the unpaid team: Create comes back once board and list are choices again.
    await panel(next).getByTestId('threadwork-team').selectOption(SEED.unpaidTeam);
    await panel(next).getByTestId('threadwork-team').selectOption(SEED.team);
    await expect.poll(() => panel(next).getByTestId('threadwork-submit').isEnabled()).toBe(true);
    expect(await panel(next).getByTestId('threadwork-list').inputValue()).toBe(SEED.doing);
    await next.close();
  });

  it('turns into the confirmation after success: no second task without "Create another", and Tab reaches Open', async () => {
    proxy.set({ kind: 'pass' });
    const before = await linkedIds(SEED.lunch.id);
    const page = await readyPanel(LUNCH);
    const view = panel(page);
    await view.getByTestId('threadwork-title').fill('Book the table');
    await view.getByTestId('threadwork-submit').click();
    const confirmation = view.getByTestId('threadwork-confirmation');
    await expect.poll(() => confirmation.textContent()).toContain('Book the table');
    // The form is gone: a second click has nothing to click, and Ctrl+Enter creates nothing.
    expect(await view.getByTestId('threadwork-submit').count()).toBe(0);
    expect(await confirmation.getByRole('button', { name: 'Open', exact: true }).count()).toBe(1);
    await page.keyboard.press('Control+Enter');
    await page.waitForTimeout(400);
    expect((await linkedIds(SEED.lunch.id)).length).toBe(before.length + 1);
    // The keyboard stayed in the panel through the create, on the confirmation; Tab goes on to its Open.
    expect(await focusInfo(page)).toEqual({ host: 'panel', inner: 'threadwork-confirmation' });
    await page.keyboard.press('Tab');
    const focused = await (await panelFrame(page)).evaluate(() => document.activeElement?.textContent);
    expect(focused).toBe('Open');
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-confirmation.png') });

    await view.getByTestId('threadwork-create-another').click();
    await expect.poll(() => view.getByTestId('threadwork-title').inputValue()).toBe('Lunch on Friday?');
    await view.getByTestId('threadwork-submit').click();
    await confirmation.waitFor();
    expect((await linkedIds(SEED.lunch.id)).length).toBe(before.length + 2);
    await page.close();
  });

  it('with the service down: a short human message, no secret or URL, Retry and the settings, unknown not "none"', async () => {
    // Saving again drops the session token, so the panel's first call is the token request with the secret.
    await (await configure(browser, proxy.origin)).close();
    await forgetKeptAnswers();
    proxy.set({ kind: 'down' });
    const page = await openPanel(browser, ROOF);
    const view = panel(page);
    const error = view.getByTestId('threadwork-error');
    await expect.poll(() => error.getAttribute('data-kind'), { timeout: 15_000 }).toBe('unreachable');
    const text = (await view.getByTestId('threadwork-panel').textContent()) ?? '';
    expect(text).not.toContain(SEED.credentials.apiSecret);
    expect(text).not.toContain('api_secret');
    expect(text).not.toMatch(/https?:\/\/(?!mail\.google\.com)/);
    expect(text).not.toContain('None yet.');
    expect(await error.getByRole('button', { name: 'Open settings' }).count()).toBe(1);
    // Nothing overflows the panel sideways.
    const overflow = await view
      .getByTestId('threadwork-panel')
      .evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-service-down.png') });

    // The service is back: Retry fills the pickers and the thread's tasks.
    proxy.set({ kind: 'pass' });
    await error.getByTestId('threadwork-retry').click();
    await expect.poll(() => view.getByTestId('threadwork-list').locator('option').count()).toBe(2);
    expect(await error.count()).toBe(0);
    await expect.poll(() => view.getByTestId('threadwork-submit').isEnabled()).toBe(true);
    await page.close();
  });

  it('on a first use of a slow service, says what it waits for after about a second, never blank pickers', async () => {
    await forgetKeptAnswers();
    proxy.set({ kind: 'slow', ms: 2500 });
    const page = await openPanel(browser, ROOF);
    const view = panel(page);
    const progress = view.getByTestId('threadwork-progress');
    await view.getByTestId('threadwork-team').waitFor();
    expect(await view.getByTestId('threadwork-team').locator('option').first().textContent()).toBe(
      'Loading…',
    );
    // When the progress line first shows, timed in the frame (whose clock starts before the panel does):
    // after about a second, never as a flash.
    const shownAt = await (await panelFrame(page)).evaluate(
      () =>
        new Promise<number>((resolve) => {
          const look = () => {
            if (document.querySelector('[data-testid="threadwork-progress"]')) resolve(performance.now());
            else requestAnimationFrame(look);
          };
          look();
        }),
    );
    expect(shownAt).toBeGreaterThanOrEqual(PROGRESS_AFTER_MS);
    expect(await progress.textContent()).toContain('Loading teams');
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-slow.png') });
    await expect
      .poll(() => view.getByTestId('threadwork-list').locator('option').count(), { timeout: 20_000 })
      .toBe(2);
    await expect.poll(() => progress.count(), { timeout: 5000 }).toBe(0);
    await page.close();

    proxy.set({ kind: 'hang' });
    await forgetKeptAnswers();
    const hung = await openPanel(browser, LUNCH);
    await panel(hung).getByTestId('threadwork-progress').waitFor({ timeout: 3000 });
    expect(await panel(hung).getByTestId('threadwork-submit').isDisabled()).toBe(true);
    expect(
      await panel(hung).getByTestId('threadwork-board').locator('option').first().textContent(),
    ).not.toBe('');
    await hung.close();
    proxy.set({ kind: 'pass' });
  });

  it('on a slow service, is usable at once from the last use and asks for the rest in one round trip', async () => {
    proxy.set({ kind: 'pass' });
    // The last use: a create in Acme › Roadmap › To do, every answer kept.
    const last = await readyPanel(ROOF);
    await panel(last).getByTestId('threadwork-list').selectOption(SEED.todo);
    await panel(last).getByTestId('threadwork-submit').click();
    await panel(last).getByTestId('threadwork-confirmation').waitFor();
    await last.close();

    proxy.set({ kind: 'slow', ms: 2000 });
    const page = await openPanel(browser, LUNCH);
    const view = panel(page);
    // Create may send the kept choice before the service has answered anything.
    const opened = performance.now();
    await expect.poll(() => view.getByTestId('threadwork-submit').isEnabled(), { timeout: 1500 }).toBe(true);
    expect(performance.now() - opened).toBeLessThan(2000);
    expect(await view.getByTestId('threadwork-list').inputValue()).toBe(SEED.todo);
    await page.close();

    // With nothing kept, the remembered board's lists, members and fields go out with the teams, not after them.
    await forgetKeptAnswers();
    await proxy.idle();
    proxy.log.length = 0;
    const fresh = await openPanel(browser, LUNCH);
    await expect
      .poll(() => panel(fresh).getByTestId('threadwork-submit').isEnabled(), { timeout: 10_000 })
      .toBe(true);
    const sent = (path: string) => proxy.log.find((entry) => entry.path === path)?.at ?? Number.NaN;
    const teams = sent('/v2/teams');
    const arrivals = JSON.stringify(proxy.log.map(({ path, at }) => [path, Math.round(at - teams)]));
    // One request after the answer of another would come a whole round trip (2 s) later.
    for (const path of [
      '/v2/boards',
      `/v2/boards/${SEED.board}/lists`,
      `/v2/boards/${SEED.board}/members`,
      `/v2/boards/${SEED.board}/custom-fields`,
    ])
      expect(Math.abs(sent(path) - teams), `${path} in ${arrivals}`).toBeLessThan(1900);
    await fresh.close();
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
    await panel(page).getByTestId('threadwork-panel').waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => focusInfo(page)).toEqual({ host: 'panel', inner: 'threadwork-title' });
    await expect.poll(() => panel(page).getByTestId('threadwork-list').locator('option').count()).toBe(2);

    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      expect((await focusInfo(page)).host).toBe('panel');
    }
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Shift+Tab');
      expect((await focusInfo(page)).host).toBe('panel');
    }
    // A click on the panel's heading (no control there), then Escape: the panel closes.
    await panel(page).getByTestId('threadwork-panel').getByRole('heading', { name: 'Create task' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => panelShown(page)).toBe(false);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await focusInfo(page)).toEqual({ host: 'button', inner: 'threadwork-create-task' });
    // Enter on the focused button opens it again; the close button sends focus back too.
    await page.keyboard.press('Enter');
    await expect.poll(() => panelShown(page)).toBe(true);
    await panel(page).getByTestId('threadwork-panel').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => focusInfo(page)).toEqual({ host: 'button', inner: 'threadwork-create-task' });
    await page.close();
  });

  it('looks native: the button sits in the toolbar row, even at 700 px, names are whole, dark follows the mailbox, the thread stays usable, axe is clean', async () => {
    proxy.set({ kind: 'pass' });
    const page = await browser.context.newPage();
    await page.goto(MAILBOX_URL);
    await openThread(page, ROOF);
    const button = page.getByTestId('threadwork-create-task');
    await button.waitFor();
    // A plus, "add a task": never a check mark, which reads as "done".
    expect(await button.textContent()).toBe('+Create task');
    const layout = () =>
      page.evaluate(() => {
        const toolbar = document.querySelector<HTMLElement>('#view-FMfcgzQXJroof [gh="mtb"]')!;
        const host = toolbar.querySelector<HTMLElement>('[data-threadwork-host="button"]')!;
        const archive = toolbar.querySelector('[aria-label="Archive"]')!.getBoundingClientRect();
        const control = host.shadowRoot!.querySelector('button')!;
        const box = control.getBoundingClientRect();
        const withButton = toolbar.getBoundingClientRect().height;
        host.style.display = 'none';
        const without = toolbar.getBoundingClientRect().height;
        host.style.display = '';
        return {
          grew: withButton - without,
          height: box.height,
          centre: box.top + box.height / 2 - (archive.top + archive.height / 2),
          compact: control.classList.contains('tw-compact'),
        };
      });
    expect(await layout()).toMatchObject({ grew: 0, compact: false });
    expect((await layout()).height).toBeLessThanOrEqual(40);
    expect(Math.abs((await layout()).centre)).toBeLessThanOrEqual(2);
    await page.locator('#view-FMfcgzQXJroof .G-atb').screenshot({ path: join(SHOTS, 'toolbar.png') });
    // A 700 px window: the row has no room for the label; the button keeps its place in the row as an icon.
    await page.setViewportSize({ width: 700, height: 800 });
    await expect.poll(async () => (await layout()).compact).toBe(true);
    expect((await layout()).grew).toBe(0);
    expect(Math.abs((await layout()).centre)).toBeLessThanOrEqual(2);
    expect(await page.getByRole('button', { name: 'Create task' }).count()).toBe(1);
    await page.locator('#view-FMfcgzQXJroof .G-atb').screenshot({ path: join(SHOTS, 'toolbar-700px.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => (await layout()).compact).toBe(false);

    await button.click();
    const view = panel(page);
    const assignee = view.getByTestId('threadwork-assignee');
    await expect.poll(() => assignee.locator('option').count()).toBe(3);
    await assignee.selectOption({ label: 'Avery Operator' });
    // The whole name fits in the picker (text width against the box minus padding and arrow).
    const fits = await assignee.evaluate((select: HTMLSelectElement) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.textContent = select.selectedOptions[0]!.textContent;
      document.body.appendChild(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      return select.clientWidth - 40 - text;
    });
    expect(fits).toBeGreaterThan(0);
    expect(await seriousViolations(await panelFrame(page))).toEqual([]);
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-light.png') });

    // The mailbox switches to a dark theme: the panel and the button follow on their next showing.
    await page.evaluate(() => document.body.classList.add('dark-theme'));
    await page.keyboard.press('Escape');
    await openThread(page, LUNCH);
    await button.click();
    await expect.poll(() => view.getByTestId('threadwork-list').locator('option').count()).toBe(2);
    await expect
      .poll(() =>
        view.getByTestId('threadwork-panel').evaluate((element) => getComputedStyle(element).backgroundColor),
      )
      .toBe('rgb(45, 47, 49)');
    expect(await button.evaluate((control) => getComputedStyle(control).backgroundColor)).toBe(
      'rgb(0, 74, 119)',
    );
    expect(await seriousViolations(await panelFrame(page))).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'mailbox-dark.png') });

    // A 700 px window: the panel is a sheet over the lower part; the thread's subject and first lines stay
    // visible and clickable above it.
    await page.setViewportSize({ width: 700, height: 800 });
    const usable = await page.evaluate(() => {
      const view = document.getElementById('view-FMfcgzQXJlunch')!;
      return [view.querySelector('h2')!, view.querySelector('.a3s')!].map((element) => {
        const rect = element.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.left + 20, rect.top + 10);
        return hit === element || element.contains(hit);
      });
    });
    expect(usable).toEqual([true, true]);
    const sheet = await page.locator(PANEL_FRAME).boundingBox();
    expect(sheet).toMatchObject({ x: 0, width: 700 });
    expect(sheet!.y + sheet!.height).toBeCloseTo(800, 0);
    await page.screenshot({ path: join(SHOTS, 'mailbox-700px-dark.png') });
    await page.close();
  });

  it('assigns the new task to a board member, with a quick due date', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(ROOF);
    const view = panel(page);
    await view.getByTestId('threadwork-title').fill('Check the roof quote');
    await expect.poll(() => view.getByTestId('threadwork-assignee').locator('option').count()).toBe(3);
    await view.getByTestId('threadwork-assignee').selectOption('avery@example.com');
    await view.getByRole('button', { name: 'Tomorrow', exact: true }).click();
    const tomorrow = await page.evaluate(() => {
      const day = new Date();
      day.setDate(day.getDate() + 1);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    });
    expect(await view.getByTestId('threadwork-due').inputValue()).toBe(tomorrow);
    await view.getByTestId('threadwork-submit').click();
    const confirmation = view.getByTestId('threadwork-confirmation');
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

  it('adds this thread to an existing task found by its words, never one the thread is already on', async () => {
    proxy.set({ kind: 'pass' });
    const task = await api.tasks.create({
      list_id: SEED.todo,
      title: 'Orchard Foods: gutter repair estimate',
    });
    const page = await readyPanel(ROOF);
    const view = panel(page);
    // Punctuation and case aside: the words find it.
    await view.getByTestId('threadwork-existing-task').fill('orchard foods gutter');
    const result = view.locator(`[data-testid="threadwork-existing-result"][data-task-id="${task.id}"]`);
    await result.waitFor();
    await view.getByTestId('threadwork-link-existing').click();
    await view.getByTestId('threadwork-link-confirmation').waitFor();
    expect((await api.tasks.get(task.id)).thread_ids).toContain(SEED.roof.id);
    await view.locator(`[data-testid="threadwork-linked-task"][data-task-id="${task.id}"]`).waitFor();
    // Found again, it says the thread is already on it, and cannot be added twice; nothing is created.
    const before = await allTaskIds();
    await view.getByTestId('threadwork-existing-task').fill('Orchard Foods: gutter repair estimate');
    await expect.poll(() => result.getAttribute('data-linked')).toBe('true');
    expect(await result.textContent()).toContain('already has this thread');
    expect(await view.getByTestId('threadwork-link-existing').isDisabled()).toBe(true);
    await view.getByTestId('threadwork-existing-task').press('Enter');
    await page.waitForTimeout(300);
    expect(await view.getByTestId('threadwork-link-confirmation').count()).toBe(0);
    expect(await allTaskIds()).toEqual(before);
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-existing-task.png') });
    await page.close();
  });
});

describe.runIf(BROWSER_TESTS)('what the task holds, and where it may go', () => {
  it('fills the notes with the open message and a link back to the thread, marked, and the task keeps them', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(ROOF);
    const view = panel(page);
    const notes = await view.getByTestId('threadwork-notes').inputValue();
    expect(notes).toBe(
      'From Bob Stone <bob@stone.test>:\nHi Ada, the quote for the roof is attached. Could you look at it before Friday and tell me whether the second option works for you?\n\nBob\n\nThread: https://mail.google.com/mail/u/0/#inbox/FMfcgzQXJroof',
    );
    // The quoted part the mailbox hides is not copied.
    expect(notes).not.toContain('could you send a quote?');
    expect(await view.getByTestId('threadwork-notes-hint').textContent()).toContain(
      'Filled in from the email',
    );
    await view.getByTestId('threadwork-title').fill('Roof quote, with its email');
    await view.getByTestId('threadwork-submit').click();
    await view.getByTestId('threadwork-confirmation').waitFor();
    const task = (await api.tasks.list({ board_id: SEED.board })).data.find(
      (candidate) => candidate.title === 'Roof quote, with its email',
    );
    expect(task?.notes).toBe(notes);
    await page.close();
  });

  it('offers the personal board under "Personal", and the task lands there', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(LUNCH);
    const view = panel(page);
    await expect
      .poll(() => view.getByTestId('threadwork-team').locator('option').allTextContents())
      .toEqual(['Acme', 'Garage (unpaid)', 'Personal']);
    await view.getByTestId('threadwork-team').selectOption('personal');
    await expect.poll(() => view.getByTestId('threadwork-board').inputValue()).toBe(SEED.personalBoard);
    await expect.poll(() => view.getByTestId('threadwork-list').inputValue()).toBe(SEED.personalList);
    await view.getByTestId('threadwork-title').fill('Pick up the lunch voucher');
    await view.getByTestId('threadwork-submit').click();
    await expect.poll(() => view.getByTestId('threadwork-confirmation').textContent()).toContain('My board');
    const tasks = (await api.tasks.list({ list_id: SEED.personalList })).data;
    expect(tasks.map((task) => task.title)).toContain('Pick up the lunch voucher');
    await page.close();
  });

  it('offers the board’s own fields by kind, not the AI’s, and the task holds what was chosen', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(ROOF);
    const view = panel(page);
    await view.getByTestId('threadwork-team').selectOption(SEED.team);
    await view.getByTestId('threadwork-board').selectOption(SEED.board);
    const field = (id: string) => view.locator(`[data-testid="threadwork-field"][data-field-id="${id}"]`);
    await field('fld_budget').waitFor();
    expect(await field('fld_urgency').count()).toBe(0);
    await field('fld_budget').locator('input').fill('4800');
    await field('fld_stage').locator('select').selectOption({ label: 'Quoted' });
    await field('fld_tags').getByRole('checkbox', { name: 'Roof' }).check();
    await view.getByTestId('threadwork-title').fill('Roof quote with fields');
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-fields.png') });
    await view.getByTestId('threadwork-submit').click();
    await view.getByTestId('threadwork-confirmation').waitFor();
    const task = (await api.tasks.list({ board_id: SEED.board })).data.find(
      (candidate) => candidate.title === 'Roof quote with fields',
    )!;
    expect(task.custom_fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field_id: 'fld_budget', value: 4800 }),
        expect.objectContaining({ field_id: 'fld_stage', value: ['opt_quoted'] }),
        expect.objectContaining({ field_id: 'fld_tags', value: ['opt_roof'] }),
      ]),
    );
    await page.close();
  });

  it('cuts a subject longer than a title may be to the service’s limit, and the service takes it', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(LONG);
    const view = panel(page);
    const title = await view.getByTestId('threadwork-title').inputValue();
    // At most the limit, a space before the cut dropped, and "…" to say it was cut.
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
    expect(title.length).toBeGreaterThan(MAX_TITLE_LENGTH - 3);
    expect(title.endsWith('…')).toBe(true);
    await view.getByTestId('threadwork-submit').click();
    await view.getByTestId('threadwork-confirmation').waitFor();
    const linked = await linkedIds(SEED.longThread);
    expect((await api.tasks.get(linked[0]!)).title).toBe(title);
    await page.close();
  });

  it('says in plain words when the service does not know the thread, and creates the task without the link', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(OTHER);
    const view = panel(page);
    const notice = view.getByTestId('threadwork-thread-unknown');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('This thread is not in Threadwork yet');
    expect(await view.getByTestId('threadwork-error').count()).toBe(0);
    expect(await view.getByTestId('threadwork-archive').count()).toBe(0);
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-unknown-thread.png') });
    const submit = view.getByTestId('threadwork-submit');
    expect(await submit.textContent()).toBe('Create task without the link');
    await submit.click();
    await view.getByTestId('threadwork-confirmation').waitFor();
    const task = (await api.tasks.list({ board_id: SEED.board })).data.find(
      (candidate) => candidate.title === 'Invoice from another account',
    );
    expect(task?.thread_ids).toEqual([]);
    await page.close();
  });

  it('keeps typed notes when another thread opens with the panel open, says so, and brings them back', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(ROOF);
    const view = panel(page);
    await view.getByTestId('threadwork-notes').fill('Ask Bob about the gutter too');
    await openThread(page, LUNCH);
    await expect.poll(() => view.getByTestId('threadwork-title').inputValue()).toBe('Lunch on Friday?');
    const kept = view.getByTestId('threadwork-kept-draft');
    await kept.waitFor();
    expect(await kept.textContent()).toContain('Your draft for “Quote for the roof <b>🏠</b>” is kept');
    await openThread(page, ROOF);
    await expect
      .poll(() => view.getByTestId('threadwork-notes').inputValue())
      .toBe('Ask Bob about the gutter too');
    await view.getByTestId('threadwork-restored-draft').waitFor();
    // Closed and opened again in a new tab: still there, until created or discarded.
    await page.close();
    const again = await readyPanel(ROOF);
    expect(await panel(again).getByTestId('threadwork-notes').inputValue()).toBe(
      'Ask Bob about the gutter too',
    );
    await panel(again)
      .getByTestId('threadwork-restored-draft')
      .getByRole('button', { name: 'Discard it' })
      .click();
    await expect.poll(() => panel(again).getByTestId('threadwork-notes').inputValue()).toContain('Hi Ada');
    await again.close();
  });

  it('shows a new key’s secret in view with the keyboard on it, from the panel’s own API tab', async () => {
    proxy.set({ kind: 'pass' });
    const page = await readyPanel(LUNCH);
    const view = panel(page);
    await view.getByTestId('threadwork-panel').getByRole('button', { name: 'Settings' }).click();
    // A slow service: the form is whole at once, and the keys arriving below it move nothing of it.
    proxy.set({ kind: 'slow', ms: 1500 });
    await view.getByRole('tab', { name: 'API keys' }).click();
    const create = view.getByTestId('threadwork-key-create');
    await view.getByTestId('threadwork-keys').getByText('Loading…').waitFor();
    const box = () => create.evaluate((element) => JSON.stringify(element.getBoundingClientRect()));
    const whileLoading = await box();
    await view.getByTestId('threadwork-key').first().waitFor();
    expect(await box()).toBe(whileLoading);
    proxy.set({ kind: 'pass' });
    await view.getByTestId('threadwork-key-name').fill('Phone');
    await create.click();
    await view.getByTestId('threadwork-key-secret').waitFor();
    expect(await focusInfo(page)).toEqual({ host: 'panel', inner: 'threadwork-key-created' });
    const inView = await (await panelFrame(page)).evaluate(() => {
      const box = document.querySelector('[data-testid="threadwork-key-secret"]')!.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= innerHeight;
    });
    expect(inView).toBe(true);
    // The frame may write to the clipboard: the page lets it (`allow="clipboard-write"`).
    await view.getByTestId('threadwork-key-created').getByRole('button', { name: 'Copy' }).click();
    await expect
      .poll(() => view.getByTestId('threadwork-key-created').getByRole('button').first().textContent())
      .toBe('Copied');
    await page.locator(PANEL_FRAME).screenshot({ path: join(SHOTS, 'panel-new-key.png') });
    await page.close();
  });

  // Last: the extension's key goes.
  it('says a key revoked elsewhere was revoked, not "no API key named Browser"', async () => {
    proxy.set({ kind: 'pass' });
    await api.apiKeys.delete('key_ext');
    // The session token still works for a while: saving again makes the next call sign in.
    await (await configure(browser, proxy.origin)).close();
    const page = await openPanel(browser, ROOF);
    const error = panel(page).getByTestId('threadwork-error');
    await expect.poll(() => error.getAttribute('data-kind')).toBe('bad_credentials');
    const text = await error.textContent();
    expect(text).toContain('no longer accepts the key Threadwork signs in with: it may have been revoked');
    expect(text).not.toContain('no API key named');
    expect(await error.getByTestId('threadwork-retry').count()).toBe(0);
    await page.close();
  });
});
