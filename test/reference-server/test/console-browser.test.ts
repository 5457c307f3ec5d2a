// The console in a real Chromium (playwright-core, the machine's browser), against an in-process server
// with the demo workspace, driven by its test hooks (docs/console.md). Each page and each action, with
// what the service holds afterwards read back through the API; changes by hand (the task page, boards
// and lists, subscriptions, threads, drag and drop, the keyboard); the deliveries page's filters, pages
// and detail; axe-core; screenshots in light and dark, wide and narrow, written to test/screenshots/
// (not committed) for a look. Live pages with every write kind, and a restart: console-browser-live.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, CHROMIUM } from '../../../extension/test/helpers/browser.ts';
import { DEMO_CREDENTIALS } from '../src/seed/demo.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import {
  apiOf,
  demoV1Token,
  eventually,
  expectAccessible,
  hooks,
  liveText,
  startReceiver,
} from './helpers/console-browser.ts';
import { freshDatabase } from './helpers/database.ts';
import { offlineResolver } from './helpers/server.ts';

const SHOTS = join(import.meta.dirname, 'screenshots');
const THREAD = '18c2f0a1b2c3d4e5';

let browser: Browser;
let server: RunningServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let page: Page;

const api = apiOf(() => server.origin);

async function tasksOf(
  listId: string,
): Promise<{ id: string; title: string; completed: boolean; shade: string }[]> {
  return (await api(`/tasks?list_id=${listId}&limit=200`)).body.data;
}

beforeAll(async () => {
  if (!BROWSER_TESTS) return;
  mkdirSync(SHOTS, { recursive: true });
  receiver = await startReceiver();
  server = await startServer({
    port: 0,
    ...(await freshDatabase(undefined)),
    demo: true,
    console: true,
    testControl: true,
    allowInsecureWebhooks: true,
    webhookTimeScale: 0.001,
    resolveHost: offlineResolver,
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  // The first console request builds the browser bundle when its sources changed: not a test's time.
  await fetch(`${server.origin}/`, { headers: { accept: 'text/html' } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

beforeEach(async () => {
  if (!BROWSER_TESTS) return;
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // A step that cannot happen fails with its own message rather than the test's time-out.
  page.setDefaultTimeout(4000);
  page.on('pageerror', (error) => {
    throw error;
  });
});

const { list, card, cardIds } = hooks(() => page);

/** The id a delivery row's Replay made, as its status line says. */
async function replayedAs(row: Locator): Promise<string> {
  const status = row.getByRole('status').filter({ hasText: 'Replayed as' });
  return /Replayed as (\S+)\./.exec((await status.textContent()) ?? '')?.[1] ?? '';
}

// A shared machine may be slow: each test may take a while, while each of its steps fails in 4 s.
describe.runIf(BROWSER_TESTS)('the console in Chromium', { timeout: 20_000 }, () => {
  it('lists the teams with their subscription and their boards, and opens a board', async () => {
    await page.goto(`${server.origin}/`);
    await expect.poll(() => page.locator('h2').first().textContent()).toBe('Northwind Studio');
    await expect.poll(() => page.locator('.subscription').first().textContent()).toContain('pro, active');
    await page.locator('[data-testid="console-board"][data-board-id="brd_product"]').click();
    await page.locator('section[data-testid="console-board"][data-board-id="brd_product"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/boards/brd_product');
    await expectAccessible(page, 'overview → board');
  });

  it('shows every list as a column and its cards in the list’s position order, with their card fields', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    for (const listId of ['lst_backlog', 'lst_doing', 'lst_review', 'lst_done']) {
      await expect.poll(() => cardIds(listId)).toEqual((await tasksOf(listId)).map((task) => task.id));
    }
    const linked = card('tsk_demo_p07');
    await expect.poll(() => linked.textContent()).toContain('Threads1');
    await expect.poll(() => linked.textContent()).toContain('AssigneeGrace Hopper');
    await expect.poll(() => card('tsk_demo_p01').textContent()).toContain('PriorityHigh');
    await expectAccessible(page, 'board');
  });

  it('adds a task with Enter in a list, through the domain: the API has it and its webhook and v1 hook fire', async () => {
    const subscription = await api('/webhooks/subscriptions', {
      method: 'POST',
      body: { target_url: receiver.url, events: ['task.created', 'task.completed', 'task.moved'] },
    });
    expect(subscription.status).toBe(200);
    await page.goto(`${server.origin}/boards/brd_product`);
    const input = list('lst_review').getByTestId('console-new-task');
    await input.fill('Write the console docs');
    await input.press('Enter');
    await expect
      .poll(async () => (await tasksOf('lst_review')).map((task) => task.title))
      .toContain('Write the console docs');
    const created = (await tasksOf('lst_review')).find((task) => task.title === 'Write the console docs')!;
    await card(created.id).waitFor();
    await expect
      .poll(() => cardIds('lst_review'))
      .toEqual((await tasksOf('lst_review')).map((task) => task.id));
    await expect
      .poll(() =>
        receiver.received
          .map((hit) => JSON.parse(hit.body))
          .filter((body) => body.data?.task?.id === created.id),
      )
      .toHaveLength(1);
    const hit = receiver.received.find((entry) => entry.body.includes(created.id))!;
    expect(JSON.parse(hit.body).type).toBe('task.created');
    expect(hit.headers['x-service-signature']).toMatch(/v1=/);
    await expect.poll(() => input.inputValue()).toBe('');
  });

  it('completes a task from its card', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await card('tsk_demo_p08').getByRole('checkbox').check();
    await expect.poll(async () => (await api('/tasks/tsk_demo_p08')).body.data.completed).toBe(true);
    await expect.poll(() => card('tsk_demo_p08').getAttribute('data-completed')).toBe('true');
  });

  it('moves and reorders with the keyboard: arrow keys on a card’s handle', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await card('tsk_demo_p02').locator('[data-move-handle]').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await api('/tasks/tsk_demo_p02')).body.data.list_id).toBe('lst_doing');
    await expect.poll(() => cardIds('lst_doing')).toContain('tsk_demo_p02');
    // Focus follows the card into its new list, so a second key press moves it on.
    await expect
      .poll(() =>
        page.evaluate(() =>
          (
            globalThis as unknown as {
              document: {
                activeElement: {
                  closest(s: string): { getAttribute(a: string): string | null } | null;
                } | null;
              };
            }
          ).document.activeElement
            ?.closest('[data-task-id]')
            ?.getAttribute('data-task-id'),
        ),
      )
      .toBe('tsk_demo_p02');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(async () => (await tasksOf('lst_doing')).map((task) => task.id).indexOf('tsk_demo_p02'))
      .toBe(1);
    await expect
      .poll(() => cardIds('lst_doing'))
      .toEqual((await tasksOf('lst_doing')).map((task) => task.id));
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await tasksOf('lst_doing'))[0]?.id).toBe('tsk_demo_p02');
  });

  it('moves a card to another list by drag and drop, where it is dropped', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    const target = (await tasksOf('lst_review'))[0]!;
    await card('tsk_demo_p04').dragTo(card(target.id), { targetPosition: { x: 40, y: 50 } });
    await expect.poll(async () => (await api('/tasks/tsk_demo_p04')).body.data.list_id).toBe('lst_review');
    const order = (await tasksOf('lst_review')).map((task) => task.id);
    expect(order.indexOf('tsk_demo_p04')).toBe(order.indexOf(target.id) + 1);
    await expect.poll(() => cardIds('lst_review')).toEqual(order);
  });

  it('changes a task’s shade', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    const target = card('tsk_demo_p03');
    await target.locator('summary').click();
    await target.getByLabel('Shade').selectOption('teal');
    await expect.poll(async () => (await api('/tasks/tsk_demo_p03')).body.data.shade).toBe('teal');
    await expect.poll(() => target.getAttribute('class')).toContain('shade-teal');
  });

  it('shows a task created through the API on an open board page within a second, without polling', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await list('lst_backlog').waitFor();
    await expect.poll(() => liveText(page)).toBe('Live');
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.waitForTimeout(300);
    expect(requests).toEqual([]); // nothing is polled while nothing changes
    const started = Date.now();
    const created = await api('/tasks', {
      method: 'POST',
      body: { list_id: 'lst_backlog', title: 'Made by the API' },
    });
    await card(created.body.data.id).waitFor({ timeout: 1000 });
    expect(Date.now() - started).toBeLessThan(1000);
    await expect
      .poll(() => cardIds('lst_backlog'))
      .toEqual((await tasksOf('lst_backlog')).map((task) => task.id));
  });

  it('follows boards and lists made through the API: a new list on an open board, a new board on /', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    await list('lst_backlog').waitFor();
    const made = await api('/boards/brd_product/lists', { method: 'POST', body: { name: 'Shipped' } });
    await list(made.body.data.id).waitFor({ timeout: 1000 });
    await page.goto(`${server.origin}/`);
    await page.locator('[data-board-id="brd_product"]').waitFor();
    const board = await api('/boards', {
      method: 'POST',
      body: { team_id: 'team_northwind', name: 'Launch plan' },
    });
    await page
      .locator(`[data-testid="console-board"][data-board-id="${board.body.data.id}"]`)
      .waitFor({ timeout: 1000 });
  });

  it('shows a task page: every field, custom values by label, linked threads, events in order', async () => {
    await api('/tasks/tsk_demo_p07/complete', { method: 'POST' });
    await page.goto(`${server.origin}/tasks/tsk_demo_p07`);
    await expect
      .poll(() => page.getByTestId('console-task-title').textContent())
      .toBe('Reply to Stone Ltd about the export bug');
    expect(await page.title()).toBe('Reply to Stone Ltd about the export bug · Threadwork console');
    await expect.poll(() => page.locator('#task-completed').isChecked()).toBe(true);
    expect(await page.locator('#task-list option:checked').textContent()).toBe('In progress');
    expect(await page.locator('#task-assignee option:checked').textContent()).toContain('Grace Hopper');
    const priority = page.locator('dl.custom fieldset').first();
    expect(await priority.getByLabel('Low').isChecked()).toBe(true);
    const thread = page.locator(`a[href="/mail/${THREAD}"]`);
    await expect.poll(() => thread.textContent()).toBe('Export to CSV drops the last row');
    await expect
      .poll(() => page.locator('ol.events li').allTextContents())
      .toEqual([expect.stringContaining('task.completed')]);
    await expectAccessible(page, 'task page');
    await thread.click();
    await page.locator(`h2[data-legacy-thread-id="${THREAD}"]`).waitFor();
  });

  it('changes a task by hand on its page: completed, shade, list, assignee, and each kind of custom field', async () => {
    // A board with one field of every kind a person types or picks.
    const made = await api('/boards', {
      method: 'POST',
      body: { team_id: 'team_northwind', name: 'Fields' },
    });
    const boardId = made.body.data.id as string;
    const [todo, done] = (await Promise.all(
      ['To do', 'Done'].map(
        async (name) =>
          (
            await api(`/boards/${boardId}/lists`, { method: 'POST', body: { name } })
          ).body.data.id as string,
      ),
    )) as [string, string];
    const options = [{ label: 'One' }, { label: 'Two' }];
    const fields: Record<string, { id: string; options?: { id: string; label: string }[] }> = {};
    for (const type of [
      'text',
      'multiline_text',
      'number',
      'date',
      'checkbox',
      'url',
      'phone',
      'select',
      'status',
      'multiselect',
    ]) {
      const option = ['select', 'status', 'multiselect'].includes(type);
      fields[type] = (
        await api(`/boards/${boardId}/custom-fields`, {
          method: 'POST',
          body: { name: `F ${type}`, type, ...(option ? { options } : {}) },
        })
      ).body.data;
    }
    const task = (await api('/tasks', { method: 'POST', body: { list_id: todo, title: 'Edit me' } })).body
      .data;
    await page.goto(`${server.origin}/tasks/${task.id}`);
    await page.getByTestId('console-task-title').waitFor();
    const stored = async () => (await api(`/tasks/${task.id}`)).body.data;
    const storedValue = async (type: string) =>
      (await stored()).custom_fields.find(
        (entry: { field_id: string }) => entry.field_id === fields[type]!.id,
      )?.value;

    await page.locator('#task-completed').check();
    await expect.poll(async () => (await stored()).completed).toBe(true);
    await page.locator('#task-shade').selectOption('teal');
    await expect.poll(async () => (await stored()).shade).toBe('teal');
    await page.locator('#task-list').selectOption(done);
    await expect.poll(async () => (await stored()).list_id).toBe(done);
    await page.locator('#task-assignee').selectOption('grace@northwind.test');
    await expect.poll(async () => (await stored()).assignee?.email).toBe('grace@northwind.test');
    await page.locator('#task-assignee').selectOption('');
    await expect.poll(async () => (await stored()).assignee).toBeNull();

    const box = (type: string) => page.locator(`#field-${fields[type]!.id}`);
    await box('text').fill('Plain words');
    await box('text').press('Enter');
    await expect.poll(() => storedValue('text')).toBe('Plain words');
    await box('multiline_text').fill('Line one\nLine two');
    await page.getByRole('button', { name: 'Save F multiline_text' }).click();
    await expect.poll(() => storedValue('multiline_text')).toBe('Line one\nLine two');
    await box('number').fill('2.5');
    await box('number').blur();
    await expect.poll(() => storedValue('number')).toBe(2.5);
    await box('date').fill('2026-03-14');
    await box('date').press('Enter');
    await expect.poll(() => storedValue('date')).toContain('2026-03-14');
    await box('checkbox').check();
    await expect.poll(() => storedValue('checkbox')).toBe(true);
    await box('url').fill('https://example.com/spec');
    await box('url').press('Enter');
    await expect.poll(() => storedValue('url')).toBe('https://example.com/spec');
    await box('phone').fill('+44 20 7946 0000');
    await box('phone').press('Enter');
    await expect.poll(() => storedValue('phone')).toBe('+44 20 7946 0000');
    await box('select').selectOption({ label: 'Two' });
    await expect.poll(() => storedValue('select')).toEqual([fields['select']!.options![1]!.id]);
    await box('status').selectOption({ label: 'One' });
    await expect.poll(() => storedValue('status')).toEqual([fields['status']!.options![0]!.id]);
    const multi = page
      .locator('dl.custom fieldset')
      .filter({ has: page.getByLabel('One') })
      .last();
    await multi.getByLabel('One').check();
    await expect.poll(() => storedValue('multiselect')).toEqual([fields['multiselect']!.options![0]!.id]);
    await multi.getByLabel('Two').check();
    await expect
      .poll(async () => ((await storedValue('multiselect')) as string[] | undefined)?.length)
      .toBe(2);
    // Emptied, a field is cleared.
    await box('text').fill('');
    await box('text').press('Enter');
    await expect.poll(() => storedValue('text')).toBeUndefined();

    // A value the server refuses (its length rule) stays as typed, with the server's reason beside it.
    await page.route(`**/_console/api/tasks/${task.id}`, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              error: {
                code: 'validation_error',
                message: 'custom_fields[0].value: at most 1,024 characters',
                details: [{ path: 'custom_fields[0].value', message: 'at most 1,024 characters' }],
                request_id: 'req_test',
              },
            }),
          })
        : route.continue(),
    );
    await box('url').fill('https://example.com/too-long');
    await box('url').press('Enter');
    const reason = page.locator(`#field-${fields['url']!.id}-error`);
    await expect.poll(() => reason.textContent()).toBe('at most 1,024 characters');
    expect(await box('url').inputValue()).toBe('https://example.com/too-long');
    expect(await box('url').getAttribute('aria-invalid')).toBe('true');
    expect(await storedValue('url')).toBe('https://example.com/spec');
    await page.unroute(`**/_console/api/tasks/${task.id}`);
    await expectAccessible(page, 'task page with every kind of field');
  });

  it('archives and deletes a task from its page, each after a confirmation, with their events', async () => {
    await api('/webhooks/subscriptions', {
      method: 'POST',
      body: { target_url: receiver.url, events: ['task.archived', 'task.deleted'] },
    });
    const task = (
      await api('/tasks', { method: 'POST', body: { list_id: 'lst_review', title: 'Short-lived' } })
    ).body.data;
    await page.goto(`${server.origin}/tasks/${task.id}`);
    await page.getByRole('button', { name: 'Archive task Short-lived', exact: true }).click();
    // The first click only asks; nothing is archived until the confirmation.
    expect((await tasksOf('lst_review')).map((entry) => entry.id)).toContain(task.id);
    await page.getByRole('button', { name: 'Confirm archive task Short-lived', exact: true }).click();
    await page.locator('[data-archived]').waitFor();
    expect((await tasksOf('lst_review')).map((entry) => entry.id)).not.toContain(task.id);
    // Escape cancels a confirmation, and focus is back on the button.
    const remove = page.getByRole('button', { name: 'Delete task Short-lived', exact: true });
    await remove.click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() =>
        remove.evaluate(
          (button) =>
            button ===
            (button as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement,
        ),
      )
      .toBe(true);
    expect((await api(`/tasks/${task.id}`)).status).toBe(200);
    await remove.click();
    await page.getByRole('button', { name: 'Confirm delete task Short-lived', exact: true }).click();
    await page.waitForURL(`${server.origin}/boards/brd_product`);
    expect((await api(`/tasks/${task.id}`)).status).toBe(404);
    const types = () =>
      receiver.received
        .map((hit) => JSON.parse(hit.body))
        .filter((body) => body.data?.task?.id === task.id && body.type !== 'task.created')
        .map((body) => body.type);
    await expect.poll(types).toEqual(['task.archived', 'task.deleted']);
  });

  it('makes and renames boards and lists in place; a refused name stays typed', async () => {
    await page.goto(`${server.origin}/`);
    const box = page.getByLabel('New board in Northwind Studio');
    await box.fill('Hand-made board');
    await box.press('Enter');
    const link = page.locator('[data-testid="console-board"]', { hasText: 'Hand-made board' });
    await link.waitFor();
    const boardId = (await link.getAttribute('data-board-id'))!;
    expect((await api(`/boards/${boardId}`)).body.data.name).toBe('Hand-made board');
    await link.click();
    await page.getByRole('button', { name: 'Rename board Hand-made board' }).click();
    await page.getByLabel('New name for board Hand-made board').fill('Renamed by hand');
    await page.getByLabel('New name for board Hand-made board').press('Enter');
    await expect.poll(async () => (await api(`/boards/${boardId}`)).body.data.name).toBe('Renamed by hand');
    await expect.poll(() => page.locator('h1').textContent()).toContain('Renamed by hand');
    expect(await page.title()).toBe('Renamed by hand · Threadwork console');

    await page.getByLabel('Add a list').fill('First list');
    await page.getByLabel('Add a list').press('Enter');
    await expect
      .poll(async () =>
        (await api(`/boards/${boardId}/lists`)).body.data.map((l: { name: string }) => l.name),
      )
      .toEqual(['First list']);
    const listId = (await api(`/boards/${boardId}/lists`)).body.data[0].id as string;
    await list(listId).waitFor();
    await expect.poll(() => page.getByLabel('Add a list').inputValue()).toBe('');
    await list(listId).getByRole('button', { name: 'Rename list First list' }).click();
    const rename = page.getByLabel('New name for list First list');
    // Escape leaves the name as it was.
    await rename.fill('Not this');
    await rename.press('Escape');
    expect((await api(`/boards/${boardId}/lists`)).body.data[0].name).toBe('First list');
    await list(listId).getByRole('button', { name: 'Rename list First list' }).click();
    await rename.fill('Inbox zero');
    await rename.press('Enter');
    await expect
      .poll(async () => (await api(`/boards/${boardId}/lists`)).body.data[0].name)
      .toBe('Inbox zero');
    await expect.poll(() => list(listId).locator('h2').textContent()).toContain('Inbox zero');

    // The server refuses a name (its length rule): what was typed stays, with its reason beside it.
    await page.route('**/_console/api/boards/*/lists', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'validation_error',
            message: 'name: at most 1,024 characters',
            details: [{ path: 'name', message: 'at most 1,024 characters' }],
            request_id: 'req_test',
          },
        }),
      }),
    );
    await page.getByLabel('Add a list').fill('Too long, as the server says');
    await page.getByLabel('Add a list').press('Enter');
    await expect.poll(() => page.locator('#new-list-error').textContent()).toBe('at most 1,024 characters');
    expect(await page.getByLabel('Add a list').inputValue()).toBe('Too long, as the server says');
    await page.unroute('**/_console/api/boards/*/lists');
  });

  it('keeps a title the server did not take in the "Add a task" box, with why', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    const input = list('lst_backlog').getByTestId('console-new-task');
    await input.waitFor();
    // The server away: the title stays, and the page says so.
    await page.route('**/_console/api/tasks', (route) => route.abort('connectionrefused'));
    await input.fill('Not lost');
    await input.press('Enter');
    await expect
      .poll(() => list('lst_backlog').getByRole('alert').textContent())
      .toContain('does not answer');
    expect(await input.inputValue()).toBe('Not lost');
    // A refusal with the server's reason (its length rule), beside the box.
    await page.unroute('**/_console/api/tasks');
    await page.route('**/_console/api/tasks', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'validation_error',
            message: 'title: at most 1,024 characters',
            details: [{ path: 'title', message: 'at most 1,024 characters' }],
            request_id: 'req_test',
          },
        }),
      }),
    );
    await input.press('Enter');
    await expect
      .poll(() => page.locator('#new-lst_backlog-error').textContent())
      .toBe('at most 1,024 characters');
    expect(await input.getAttribute('aria-describedby')).toBe('new-lst_backlog-error');
    expect(await input.inputValue()).toBe('Not lost');
    // Back again: Enter makes it, and the box empties.
    await page.unroute('**/_console/api/tasks');
    await input.press('Enter');
    await expect
      .poll(async () => (await tasksOf('lst_backlog')).map((task) => task.title))
      .toContain('Not lost');
    await expect.poll(() => input.inputValue()).toBe('');
  });

  it('drops a card into an empty list, onto a list’s heading, and below a list’s last card', async () => {
    const board = (
      await api('/boards', { method: 'POST', body: { team_id: 'team_northwind', name: 'Drops' } })
    ).body.data.id;
    const [from, empty, other] = (await Promise.all(
      ['From', 'Empty', 'Other'].map(
        async (name) =>
          (
            await api(`/boards/${board}/lists`, { method: 'POST', body: { name } })
          ).body.data.id as string,
      ),
    )) as [string, string, string];
    for (const [listId, title] of [
      [from, 'A'],
      [from, 'B'],
      [from, 'C'],
      [other, 'X'],
      [other, 'Y'],
    ] as const) {
      await api('/tasks', { method: 'POST', body: { list_id: listId, title, position: 'bottom' } });
    }
    await page.goto(`${server.origin}/boards/${board}`);
    await list(empty).waitFor();
    const [a, b, c] = (await tasksOf(from)).map((task) => task.id);
    // Each drop is aimed once the page draws what the service holds: a list measured while it is still
    // changing size (cards arriving, a drop's marker) can end short of the point aimed at.
    await expect.poll(() => cardIds(from)).toEqual([a, b, c]);
    // Into the empty list (anywhere on it: its middle).
    const emptyBox = (await list(empty).boundingBox())!;
    await card(a!).dragTo(list(empty), { targetPosition: { x: emptyBox.width / 2, y: emptyBox.height / 2 } });
    await expect.poll(async () => (await tasksOf(empty)).map((task) => task.id)).toEqual([a]);
    await expect.poll(() => cardIds(empty)).toEqual([a]);
    // Onto the heading of a list: it goes to the top.
    await card(b!).dragTo(list(other).locator('h2'));
    await expect.poll(async () => (await tasksOf(other))[0]?.id).toBe(b);
    const otherIds = (await tasksOf(other)).map((task) => task.id);
    await expect.poll(() => cardIds(other)).toEqual(otherIds);
    // Below the last card of a list (the empty space under it): it goes to the bottom.
    const box = (await list(other).boundingBox())!;
    await card(c!).dragTo(list(other), { targetPosition: { x: box.width / 2, y: box.height - 6 } });
    await expect.poll(async () => (await tasksOf(other)).at(-1)?.id).toBe(c);
    await expect.poll(() => cardIds(other)).toEqual((await tasksOf(other)).map((task) => task.id));
    expect(await tasksOf(from)).toEqual([]);
  });

  it('puts one card per list in the tab order, and the arrow keys go from card to card and list to list', async () => {
    await page.goto(`${server.origin}/boards/brd_product`);
    const backlog = (await tasksOf('lst_backlog')).map((task) => task.id);
    await card(backlog[0]!).waitFor();
    const focused = () =>
      page.evaluate(`(() => {
        const element = document.activeElement;
        return {
          task: element?.closest('[data-task-id]')?.getAttribute('data-task-id') ?? null,
          list: element?.closest('[data-list-id]')?.getAttribute('data-list-id') ?? null,
          testid: element?.getAttribute('data-testid') ?? null,
          className: String(element?.className ?? ''),
        };
      })()`) as Promise<{
        task: string | null;
        list: string | null;
        testid: string | null;
        className: string;
      }>;
    // From a list's title box, Tab reaches its first card's controls, then the next list's box.
    await list('lst_backlog').getByTestId('console-new-task').focus();
    const stops: string[] = [];
    for (let press = 0; press < 8; press++) {
      await page.keyboard.press('Tab');
      const at = await focused();
      stops.push(`${at.list}:${at.task ?? at.testid ?? at.className}`);
      if (at.list === 'lst_doing' && at.testid === 'console-new-task') break;
    }
    expect(
      stops
        .filter((stop) => stop.startsWith('lst_backlog:tsk_'))
        .every((stop) => stop === `lst_backlog:${backlog[0]}`),
    ).toBe(true);
    expect(stops.at(-1)).toBe('lst_doing:console-new-task');
    expect(stops.length).toBeLessThanOrEqual(7);
    // Arrow keys on a card's title: down the list, then across to the next list.
    await card(backlog[0]!).locator('.card-title').focus();
    await page.keyboard.press('ArrowDown');
    expect((await focused()).task).toBe(backlog[1]);
    await page.keyboard.press('ArrowRight');
    expect((await focused()).list).toBe('lst_doing');
    await page.keyboard.press('ArrowLeft');
    // Back in the first list, at the card last visited there, which is now its card in the tab order.
    expect((await focused()).task).toBe(backlog[1]);
    expect(await card(backlog[0]!).locator('.card-title').getAttribute('tabindex')).toBe('-1');
    // Nothing moved: these keys only move focus.
    expect((await tasksOf('lst_backlog')).map((task) => task.id)).toEqual(backlog);
  });

  it('lists threads with labels and unread state, and shows a thread as text with its linked tasks', async () => {
    await page.goto(`${server.origin}/mail`);
    const row = page.locator(`[data-testid="console-thread"][data-thread-id="${THREAD}"]`);
    await expect.poll(() => row.getAttribute('class')).toBe('unread');
    await expect.poll(() => row.textContent()).toContain('Inbox');
    await expectAccessible(page, 'mail');
    await row.locator('a').click();
    const heading = page.locator(`h2[data-legacy-thread-id="${THREAD}"]`);
    await expect.poll(() => heading.textContent()).toBe('Export to CSV drops the last row');
    expect(await page.locator('[gh="tm"] [gh="mtb"]').count()).toBe(1);
    await expect.poll(() => page.locator(`a[href="/tasks/tsk_demo_p07"]`).count()).toBe(1);
    await expectAccessible(page, 'thread');
  });

  it('marks threads read and unread and labels them, from the list and from the thread', async () => {
    const other = '18c2f0a1b2c3d4f0';
    const unread = async (threadId: string) => (await api(`/email-threads/${threadId}`)).body.data.unread;
    await page.goto(`${server.origin}/mail`);
    const row = page.locator(`[data-testid="console-thread"][data-thread-id="${other}"]`);
    expect(await unread(other)).toBe(true);
    await row.getByRole('button', { name: /Mark read/ }).click();
    await expect.poll(() => unread(other)).toBe(false);
    await expect.poll(() => row.getAttribute('class')).toBe('');
    await row.getByRole('button', { name: /Mark unread/ }).click();
    await expect.poll(() => unread(other)).toBe(true);

    await page.goto(`${server.origin}/mail/${other}`);
    await page.getByRole('button', { name: 'Mark as read' }).click();
    await expect.poll(() => unread(other)).toBe(false);
    await page.getByRole('button', { name: 'Mark as unread' }).waitFor();
    await page.getByRole('checkbox', { name: 'Billing' }).check();
    await expect.poll(async () => (await api(`/email-threads/${other}`)).body.data).toBeTruthy();
    await expect.poll(() => page.getByRole('checkbox', { name: 'Billing' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Starred' }).check();
    await page.getByRole('checkbox', { name: 'Inbox' }).uncheck();
    const search = async (q: string) =>
      (await api(`/email-threads?q=${encodeURIComponent(q)}`)).body.data.map(
        (thread: { thread_id: string }) => thread.thread_id,
      );
    await expect.poll(() => search('label:Billing')).toContain(other);
    await expect.poll(() => search('is:starred')).toContain(other);
    await expect.poll(() => search('in:inbox')).not.toContain(other);
    await expect.poll(() => page.getByRole('checkbox', { name: 'Inbox' }).isChecked()).toBe(false);
    await page.getByRole('checkbox', { name: 'Billing' }).uncheck();
    await expect.poll(() => search('label:Billing')).not.toContain(other);
    await expectAccessible(page, 'thread with labels');
  });

  it('keeps the search box on what the list shows, through Back and Forward', async () => {
    await page.goto(`${server.origin}/mail`);
    await page.getByTestId('console-thread').first().waitFor();
    const all = await page.getByTestId('console-thread').count();
    await page.getByLabel('Search mail').fill('is:unread');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=is%3Aunread/);
    await expect.poll(() => page.getByTestId('console-thread').count()).toBeLessThan(all);
    expect(await page.title()).toBe('Mail: is:unread · Threadwork console');
    await page.goBack();
    await expect.poll(() => page.getByTestId('console-thread').count()).toBe(all);
    expect(await page.getByLabel('Search mail').inputValue()).toBe('');
    await page.goForward();
    await expect.poll(() => page.getByLabel('Search mail').inputValue()).toBe('is:unread');
  });

  it('never renders mail HTML: an HTML-only message and markup in a text body stay text', async () => {
    const arrived = await fetch(`${server.origin}/_control/inbound-message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mailbox: DEMO_CREDENTIALS.email,
        message: {
          from: { email: 'mallory@evil.test', name: 'Mallory' },
          subject: 'Markup <b>inside</b>',
          body_text: '<img id="evil-text" src="x" onerror="window.pwned=1"> is text here',
          body_html: '<b id="evil-html">bold</b><img id="evil-img" src="x" onerror="window.pwned=1">',
        },
      }),
    });
    const { thread_id } = (await arrived.json()) as { thread_id: string };
    await page.goto(`${server.origin}/mail/${thread_id}`);
    await expect
      .poll(() => page.locator('.messages .text').first().textContent())
      .toBe('<img id="evil-text" src="x" onerror="window.pwned=1"> is text here');
    expect(await page.locator('#evil-text, #evil-html, #evil-img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await page.locator('h2[data-legacy-thread-id]').textContent()).toBe('Markup <b>inside</b>');
    // The console's API never even sends the HTML body.
    const token = await page.locator('meta[name="console-token"]').getAttribute('content');
    const view = await fetch(`${server.origin}/_console/api/mail/${thread_id}`, {
      headers: { 'x-console-token': token ?? '' },
    });
    expect(view.status).toBe(200);
    const text = await view.text();
    expect(text).toContain('Markup <b>inside</b>');
    expect(text).not.toContain('evil-html');
  });

  it('simulates a reply on a thread page: the message arrives, and thread.reply_received is delivered', async () => {
    await api('/webhooks/subscriptions', {
      method: 'POST',
      body: { target_url: receiver.url, events: ['thread.reply_received'] },
    });
    const before = (await api(`/email-threads/${THREAD}`)).body.data.message_ids.length;
    await page.goto(`${server.origin}/mail/${THREAD}`);
    await page.getByLabel('Reply text').fill('Friday works, thanks!');
    await page.getByTestId('console-inbound').click();
    await expect
      .poll(async () => (await api(`/email-threads/${THREAD}`)).body.data.message_ids.length)
      .toBe(before + 1);
    await expect
      .poll(() => page.locator('.messages li').last().textContent())
      .toContain('Friday works, thanks!');
    await expect.poll(() => page.locator('.messages li').last().textContent()).toContain('Bob Stone');
    await expect
      .poll(
        () => receiver.received.filter((hit) => JSON.parse(hit.body).type === 'thread.reply_received').length,
      )
      .toBe(1);
  });

  it('shows a delivery as it happens, opened on demand with its attempts, signature and body, and replays it', async () => {
    receiver.answerWith(500, { type: 'text/plain', body: 'Down for maintenance' });
    await page.goto(`${server.origin}/deliveries`);
    await page.locator('h1').waitFor();
    const created = await api('/tasks', {
      method: 'POST',
      body: { list_id: 'lst_backlog', title: 'Watch my delivery' },
    });
    const taskId = created.body.data.id as string;
    // Live: the page was open before the task existed, and is never reloaded.
    const hit = await eventually(() => receiver.received.find((entry) => entry.body.includes(taskId)));
    const deliveryId = String(hit.headers['x-service-delivery-id']);
    const mine = page.locator(`[data-testid="console-delivery"][data-delivery-id="${deliveryId}"]`);
    await expect.poll(() => mine.getAttribute('data-status'), { timeout: 5000 }).toBe('pending');
    await expect.poll(() => mine.locator('.delivery-head').textContent()).toContain('answered 500');
    // Collapsed: nothing of its detail is on the page until it is opened.
    expect(await mine.locator('.delivery-detail').count()).toBe(0);
    await mine.locator('button.disclosure').click();
    expect(await mine.locator('button.disclosure').getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => mine.locator('.attempt').count()).toBeGreaterThanOrEqual(1);
    await expect.poll(() => mine.locator('.attempt').first().textContent()).toContain('answered 500');
    // The receiver's answer, as the log keeps it.
    expect(await mine.locator('.attempt .answer').first().textContent()).toContain('(text/plain)');
    expect(await mine.locator('.attempt .answer pre').first().textContent()).toBe('Down for maintenance');
    // The attempts still ahead, by the retry schedule, while it is pending.
    await expect.poll(() => mine.locator('.schedule-list li').count()).toBeGreaterThan(0);
    expect(await mine.locator('.schedule-list li').last().textContent()).toContain('attempt 9');
    await mine.locator('summary', { hasText: 'Headers and body' }).click();
    const carried = mine.locator('details', { hasText: 'Headers and body' }).locator('pre');
    await expect.poll(() => carried.first().textContent()).toContain(`x-service-delivery-id: ${deliveryId}`);
    // The signature shown is the one sent at the delivery's last logged attempt (retries re-sign).
    const shown = /x-service-signature: (\S+)/.exec((await carried.first().textContent()) ?? '')?.[1];
    const sent = receiver.received
      .filter((entry) => entry.headers['x-service-delivery-id'] === deliveryId)
      .map((entry) => entry.headers['x-service-signature']);
    expect(sent).toContain(shown);
    expect(await carried.nth(1).textContent()).toContain(taskId);
    await expectAccessible(page, 'deliveries with a delivery open');

    receiver.answerWith(200);
    await mine.getByTestId('console-replay').click();
    const replayedId = await replayedAs(mine);
    const replayed = page.locator(`[data-testid="console-delivery"][data-delivery-id="${replayedId}"]`);
    await expect.poll(() => replayed.getAttribute('data-status'), { timeout: 5000 }).toBe('delivered');
    const replay = receiver.received.find((entry) => entry.headers['x-service-delivery-id'] === replayedId)!;
    expect(replay.headers['x-service-event-id']).toBe(hit.headers['x-service-event-id']);
  });

  it('shows the receiver’s answer of an attempt as text, never as markup', async () => {
    receiver.answerWith(200, {
      type: 'application/json',
      body: '{"received":true,"note":"<b>not markup</b>"}',
    });
    const subscription = (
      await api('/webhooks/subscriptions', {
        method: 'POST',
        body: { target_url: receiver.url, events: ['task.created'] },
      })
    ).body.data;
    const test = (await api(`/webhooks/subscriptions/${subscription.id}/test`, { method: 'POST' })).body.data;
    await expect
      .poll(
        async () => (await api(`/webhooks/subscriptions/${subscription.id}/deliveries`)).body.data[0]?.status,
      )
      .toBe('delivered');
    await page.goto(`${server.origin}/deliveries?subscription_id=${subscription.id}`);
    const row = page.locator(`[data-testid="console-delivery"][data-delivery-id="${test.id}"]`);
    await row.locator('button.disclosure').click();
    await row.locator('summary', { hasText: "The receiver's answer" }).click();
    await expect.poll(() => row.locator('.answer summary').textContent()).toContain('application/json');
    expect(await row.locator('.answer pre').textContent()).toBe(
      '{"received":true,"note":"<b>not markup</b>"}',
    );
    expect(await row.locator('.answer b').count()).toBe(0);
    receiver.answerWith(200);
    await api(`/webhooks/subscriptions/${subscription.id}`, { method: 'DELETE' });
  });

  it('filters deliveries by status, event and subscription in the URL, and pages through them', async () => {
    const board = (
      await api('/boards', { method: 'POST', body: { team_id: 'team_northwind', name: 'Paging' } })
    ).body.data.id;
    const listId = (await api(`/boards/${board}/lists`, { method: 'POST', body: { name: 'Many' } })).body.data
      .id;
    const subscription = (
      await api('/webhooks/subscriptions', {
        method: 'POST',
        body: { target_url: `${receiver.url}?paging`, events: ['task.created', 'task.completed'] },
      })
    ).body.data;
    const tasks: string[] = [];
    for (let index = 0; index < 55; index++) {
      tasks.push(
        (await api('/tasks', { method: 'POST', body: { list_id: listId, title: `Paged ${index}` } })).body
          .data.id,
      );
    }
    await api(`/tasks/${tasks[0]}/complete`, { method: 'POST' });
    const logged = async (query = '') => {
      const items: { id: string }[] = [];
      let cursor = '';
      do {
        const page = await api(
          `/webhooks/subscriptions/${subscription.id}/deliveries?limit=200${query}${cursor}`,
        );
        items.push(...page.body.data);
        cursor = page.body.meta.pagination.next_cursor
          ? `&cursor=${page.body.meta.pagination.next_cursor}`
          : '';
      } while (cursor);
      return items.map((item) => item.id);
    };
    await expect.poll(async () => (await logged()).length).toBe(56);
    const all = await logged();

    await page.goto(`${server.origin}/deliveries`);
    await page.locator('#filter-subscription').selectOption(subscription.id);
    await page.waitForURL(new RegExp(`subscription_id=${subscription.id}`));
    const rows = page.getByTestId('console-delivery');
    const shownIds = () =>
      rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-delivery-id')));
    await expect.poll(shownIds).toEqual(all.slice(0, 50));
    // Every row collapsed: a page of fifty is short.
    expect(await page.locator('.delivery-detail').count()).toBe(0);
    await page.getByRole('link', { name: 'Older →' }).click();
    await expect.poll(shownIds).toEqual(all.slice(50));
    await page.getByRole('link', { name: '← Newer' }).click();
    await expect.poll(shownIds).toEqual(all.slice(0, 50));

    await page.locator('#filter-event').selectOption('task.completed');
    await page.waitForURL(/event_type=task.completed/);
    await expect.poll(shownIds).toEqual(all.slice(0, 1));
    // The filters are the URL's: a reload keeps them, Back undoes the last.
    await page.reload();
    await expect.poll(shownIds).toEqual(all.slice(0, 1));
    expect(await page.locator('#filter-event').inputValue()).toBe('task.completed');
    await page.goBack();
    await expect.poll(shownIds).toEqual(all.slice(0, 50));
    expect(await page.locator('#filter-event').inputValue()).toBe('');
    await page.locator('#filter-status').selectOption('failed');
    await expect.poll(() => rows.count()).toBe(0);
    await page.getByText('No delivery matches these filters.').waitFor();
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await api(`/webhooks/subscriptions/${subscription.id}`, { method: 'DELETE' });
  });

  it('pauses a failing subscription from its row, retries every failed event, resumes, rotates its secret and deletes it', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const url = `${receiver.url}?failing`;
    const subscription = (
      await api('/webhooks/subscriptions', {
        method: 'POST',
        body: { target_url: url, events: ['task.created'] },
      })
    ).body.data;
    receiver.answerWith(500);
    for (const title of ['Fails once', 'Fails twice']) {
      await api('/tasks', { method: 'POST', body: { list_id: 'lst_review', title } });
    }
    await page.goto(`${server.origin}/deliveries`);
    const row = page.locator(`[data-subscription-id="${subscription.id}"]`);
    // Failing: the row says since when, and pausing stops the retries.
    await expect.poll(() => row.textContent(), { timeout: 5000 }).toContain('failing since');
    await row.getByRole('button', { name: `Pause ${url}` }).click();
    await expect
      .poll(async () => (await api(`/webhooks/subscriptions/${subscription.id}`)).body.data.status)
      .toBe('disabled');
    await expect.poll(() => row.textContent()).toContain('paused: paused by hand');
    await expect.poll(() => row.textContent(), { timeout: 8000 }).toMatch(/2 failed|[01] failed/);
    // Every pending delivery ends (suppressed or failed); then retry all failed, receiver back up.
    const statuses = async () =>
      (await api(`/webhooks/subscriptions/${subscription.id}/deliveries`)).body.data.map(
        (d: { status: string }) => d.status,
      );
    await expect.poll(async () => (await statuses()).includes('pending'), { timeout: 8000 }).toBe(false);
    await row.getByRole('button', { name: `Resume ${url}` }).click();
    await expect
      .poll(async () => (await api(`/webhooks/subscriptions/${subscription.id}`)).body.data.status)
      .toBe('active');
    receiver.answerWith(200);
    const failed = (await statuses()).filter((status: string) => status !== 'delivered').length;
    if ((await statuses()).includes('failed')) {
      await row.getByRole('button', { name: `Retry all failed for ${url}` }).click();
      await expect
        .poll(() => row.getByRole('status').textContent())
        .toMatch(/Queued \d+ failed events? again\./);
      await expect
        .poll(async () => (await statuses()).filter((status: string) => status === 'delivered').length, {
          timeout: 5000,
        })
        .toBeGreaterThan(0);
    }
    expect(failed).toBeGreaterThan(0);

    // Rotate: a confirmation, then the new secret once, with its URL and Copy.
    await row.getByRole('button', { name: `Rotate secret signing secret of ${url}` }).click();
    await row.getByRole('button', { name: `Confirm rotate signing secret of ${url}` }).click();
    const secret = row.locator(`#rotated-${subscription.id}`);
    await secret.waitFor();
    expect(await row.locator('.secret label').textContent()).toContain(url);
    const value = await secret.inputValue();
    expect(value).toMatch(/^whsec_/);
    await row.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(value);
    await expect.poll(() => row.locator('[data-rotated]').count()).toBe(1);
    // It signs: a test event's signature verifies with the new secret.
    const before = receiver.received.length;
    await row.getByRole('button', { name: `Send a test event to ${url}` }).click();
    const hit = await eventually(() =>
      receiver.received.slice(before).find((entry) => entry.body.includes('webhook.test')),
    );
    const { constructEvent } = await import('@threadwork/shared/webhooks');
    expect(() => constructEvent(hit.body, String(hit.headers['x-service-signature']), value)).not.toThrow();
    await row.getByRole('button', { name: 'Done' }).click();
    expect(await secret.count()).toBe(0);
    await expectAccessible(page, 'deliveries with a paused, rotated subscription');

    await row.getByRole('button', { name: `Delete subscription ${url}` }).click();
    await page.getByRole('button', { name: `Confirm delete subscription ${url}` }).click();
    await expect.poll(async () => (await api(`/webhooks/subscriptions/${subscription.id}`)).status).toBe(404);
    await expect.poll(() => row.count()).toBe(0);
  });

  it('deletes a v1 hook from its row', async () => {
    const token = await demoV1Token(server.origin);
    const hook = (await (
      await fetch(`${server.origin}/api/v1/items/subscribe`, {
        method: 'POST',
        headers: { 'x-access-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({
          action: 'createOnList',
          entityId: 'lst_done',
          webhookURL: `${receiver.url}?v1`,
        }),
      })
    ).json()) as { id: string };
    await page.goto(`${server.origin}/deliveries`);
    const row = page.locator(`[data-subscription-id="${hook.id}"]`);
    expect(await row.textContent()).toContain('v1 hook');
    // A v1 hook has no pause, test event or secret: only retry and delete.
    expect(await row.getByRole('button', { name: /Pause|Rotate|test event/ }).count()).toBe(0);
    await row.getByRole('button', { name: /^Delete/ }).click();
    await row.getByRole('button', { name: /Confirm delete/ }).click();
    await expect.poll(() => row.count()).toBe(0);
    const left = await fetch(`${server.origin}/api/v1/items/unsubscribe`, {
      method: 'POST',
      headers: { 'x-access-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ subscriptionId: hook.id }),
    });
    expect(left.status).toBe(404);
  });

  it('takes a newcomer from a new task to a delivered delivery and its replay, through the built-in test receiver', async () => {
    // As README's main job has it: no receiver of one's own, only the console (pnpm start's flags).
    await page.goto(`${server.origin}/deliveries`);
    await page.getByTestId('console-receiver-subscribe').click();
    await expect.poll(() => page.getByTestId('console-receiver-subscribe').count()).toBe(0);
    const subscriptions = (await api('/webhooks/subscriptions')).body.data as {
      id: string;
      target_url: string;
      events: string[];
    }[];
    const subscription = subscriptions.find((entry) => entry.target_url.endsWith('/_console/receiver'))!;
    expect(subscription.target_url).toBe(`${server.origin}/_console/receiver`);
    expect(subscription.events).toContain('task.created');
    await page.locator(`[data-subscription-id="${subscription.id}"]`).waitFor();

    // Create a task on the board, as a person does: Enter in a list's title box.
    await page.getByRole('link', { name: 'Boards' }).click();
    await page.locator('[data-testid="console-board"][data-board-id="brd_product"]').click();
    const input = list('lst_backlog').getByTestId('console-new-task');
    await input.fill('My first delivered task');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('console-task').filter({ hasText: 'My first delivered task' }).count())
      .toBe(1);

    // The deliveries page: the task's delivery, delivered to the receiver, whose signature check passed.
    await page.getByRole('link', { name: 'Deliveries' }).click();
    const newest = async () =>
      (await api(`/webhooks/subscriptions/${subscription.id}/deliveries`)).body.data[0];
    await expect.poll(async () => (await newest())?.event_type).toBe('task.created');
    const deliveryId = (await newest()).id as string;
    const mine = page.locator(`[data-testid="console-delivery"][data-delivery-id="${deliveryId}"]`);
    await expect.poll(() => mine.getAttribute('data-status'), { timeout: 5000 }).toBe('delivered');
    await expect.poll(() => mine.locator('.delivery-head').textContent()).toContain('answered 204');
    const took = page.getByTestId('console-received').filter({ hasText: deliveryId });
    await expect.poll(() => took.textContent()).toContain('valid');

    // Replay: a second delivery of the same event, delivered and verified too.
    await mine.getByTestId('console-replay').click();
    const replayedId = await replayedAs(mine);
    expect(replayedId).toMatch(/^dlv_/);
    const replayed = page.locator(`[data-testid="console-delivery"][data-delivery-id="${replayedId}"]`);
    await expect.poll(() => replayed.getAttribute('data-status'), { timeout: 5000 }).toBe('delivered');
    await expect
      .poll(() => page.getByTestId('console-received').filter({ hasText: replayedId! }).textContent())
      .toContain('valid');
    await expectAccessible(page, 'deliveries with the test receiver');
  });

  it('subscribes a webhook from the deliveries page, with its secret shown once for its URL, and sends it a test event', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const before = receiver.received.length;
    await page.goto(`${server.origin}/deliveries`);
    await page.getByText('Subscribe a webhook').click();
    await page.getByLabel('Target URL').fill(`${receiver.url}?from=console`);
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await page.locator('#hook-secret, .subscribe .error').first().waitFor();
    expect(
      await page.locator('.subscribe .error').count(),
      (await page.locator('.subscribe').textContent()) ?? '',
    ).toBe(0);
    const secret = await page.locator('#hook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await page.locator('.subscribe .secret label').textContent()).toContain(
      `${receiver.url}?from=console`,
    );
    await page.locator('.subscribe').getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    const listed = (await api('/webhooks/subscriptions')).body.data as { id: string; target_url: string }[];
    const made = listed.find((subscription) => subscription.target_url.endsWith('?from=console'))!;
    const block = page.locator(`[data-subscription-id="${made.id}"]`);
    await block.getByRole('button', { name: /Send a test event/ }).click();
    const test = await eventually(() =>
      receiver.received.slice(before).find((entry) => JSON.parse(entry.body).type === 'webhook.test'),
    );
    const row = page.locator(
      `[data-testid="console-delivery"][data-delivery-id="${test.headers['x-service-delivery-id']}"]`,
    );
    await expect.poll(() => row.getAttribute('data-status')).toBe('delivered');
    const { constructEvent } = await import('@threadwork/shared/webhooks');
    expect(() =>
      constructEvent(test.body, String(test.headers['x-service-signature']), secret),
    ).not.toThrow();
  });

  it('creates a key with an opt-in scope, shows its secret once, and revokes it', async () => {
    await page.goto(`${server.origin}/keys`);
    await page.getByLabel('Name').fill('Sends mail');
    const sendScope = page.locator('label.opt-in', { hasText: 'email.send' });
    expect(await sendScope.locator('input').isChecked()).toBe(false);
    await sendScope.locator('input').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.locator('#created-secret').inputValue();
    expect(secret).toMatch(/^tw_live_/);
    const me = await api('/me', { key: secret });
    expect(me.body.data.key.scopes).toContain('email.send');
    const keyId = me.body.data.key.id as string;
    const row = page.locator(`[data-testid="console-key"][data-key-id="${keyId}"]`);
    await expect.poll(() => row.textContent()).toContain('email.send');
    await expectAccessible(page, 'keys');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('#created-secret').count()).toBe(0);

    await row.getByRole('button', { name: /Revoke/ }).click();
    await row.getByRole('button', { name: /Confirm revoke/ }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await api('/me', { key: secret })).status).toBe(401);
  });

  it('creates a legacy key (key and secret) with the scopes chosen, which the token endpoint takes', async () => {
    await page.goto(`${server.origin}/keys`);
    await page.getByLabel('Name').fill('Second Zap');
    await page.getByLabel(/legacy key and secret/).check();
    await page.locator('.scope-grid label', { hasText: 'crm.write' }).locator('input').uncheck();
    await page.locator('label.opt-in', { hasText: 'drafts.delete' }).locator('input').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const apiKey = await page.locator('#created-key').inputValue();
    const apiSecret = await page.locator('#created-secret').inputValue();
    // Each shown once, each with its Copy.
    expect(await page.locator('.created').getByRole('button', { name: 'Copy' }).count()).toBe(2);
    await page.getByRole('button', { name: 'Done' }).click();
    // The listing keeps the public half (as GET /v2/api-keys does), named so; never the secret.
    const listed = page.locator('[data-testid="console-key"]', { hasText: 'Second Zap' });
    await expect.poll(() => listed.textContent()).toContain(`public API key ${apiKey}`);
    expect(await page.locator('main').textContent()).not.toContain(apiSecret);
    const token = await fetch(
      `${server.origin}/auth/api_token?${new URLSearchParams({ email: DEMO_CREDENTIALS.email, api_key: apiKey, api_secret: apiSecret, api_key_name: 'Second Zap' })}`,
      { method: 'POST' },
    );
    expect(token.status).toBe(200);
    const keys = (await api('/api-keys?limit=200')).body.data as {
      name: string;
      type: string;
      scopes: string[];
    }[];
    const made = keys.find((key) => key.name === 'Second Zap')!;
    expect(made.type).toBe('legacy');
    expect(made.scopes).toContain('drafts.delete');
    expect(made.scopes).not.toContain('crm.write');
    expect(made.scopes).not.toContain('email.send');
  });

  it('skips to the content, titles each tab after its page, and gives the scroll position back on Back', async () => {
    await page.goto(`${server.origin}/keys`);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.title()).toBe('API keys · Threadwork console');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('main');
    // The next Tab goes on from the content, not from the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate("document.activeElement?.closest('header') ?? null")).toBeNull();

    for (const [path, title] of [
      ['/', 'Boards'],
      ['/boards/brd_product', 'Product'],
      ['/mail', 'Mail'],
      ['/deliveries', 'Deliveries'],
    ] as const) {
      await page.goto(`${server.origin}${path}`);
      await expect.poll(() => page.title()).toBe(`${title} · Threadwork console`);
    }

    // Back to a scrolled page: the same place, once its data is in again.
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.goto(`${server.origin}/keys`);
    await page.locator('[data-testid="console-key"]').first().waitFor();
    await page.evaluate('window.scrollTo(0, 600)');
    await expect.poll(() => page.evaluate('window.scrollY')).toBe(600);
    await page.getByRole('link', { name: 'Mail' }).click();
    await page.getByRole('heading', { name: 'Mail' }).waitFor();
    expect(await page.evaluate('window.scrollY')).toBe(0);
    await page.goBack();
    await page.locator('[data-testid="console-key"]').first().waitFor();
    await expect.poll(() => page.evaluate('window.scrollY')).toBe(600);
  });

  it('answers a path it does not have with a page of its own: 404, titled, in English, axe-clean', async () => {
    const answer = await page.goto(`${server.origin}/no/such/page`);
    expect(answer?.status()).toBe(404);
    expect(await page.title()).toBe('Page not found · Threadwork console');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to the boards' }).click();
    await page.locator('[data-testid="console-board"]').first().waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await expectAccessible(page, '404');
  });

  it('looks right in light and dark, wide and narrow (screenshots), never wider than the window, with no serious axe finding', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 375]) {
        const view = await browser.newPage({ viewport: { width, height: 900 }, colorScheme });
        view.setDefaultTimeout(4000);
        for (const [name, path] of [
          ['overview', '/'],
          ['board', '/boards/brd_product'],
          ['task', '/tasks/tsk_demo_p07'],
          ['mail', '/mail'],
          ['thread', `/mail/${THREAD}`],
          ['deliveries', '/deliveries'],
          ['keys', '/keys'],
          ['404', '/no/such/page'],
        ] as const) {
          await view.goto(`${server.origin}${path}`);
          await view.locator('main h1, main h2').first().waitFor();
          await expect.poll(() => liveText(view)).toBe('Live');
          if (name === 'deliveries') await view.locator('button.disclosure').first().click();
          await view.screenshot({ path: join(SHOTS, `console-${name}-${colorScheme}-${width}.png`) });
          // The page never scrolls sideways (a board's columns scroll inside their own box).
          expect(
            await view.evaluate('document.documentElement.scrollWidth'),
            `${name} ${colorScheme} ${width}`,
          ).toBeLessThanOrEqual(width);
          await expectAccessible(view, `${name} ${colorScheme} ${width}`);
        }
        await view.close();
      }
    }
  }, 120_000);
});
