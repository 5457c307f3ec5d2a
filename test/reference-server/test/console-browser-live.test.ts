// The console's live pages in a real Chromium (docs/console.md, "Live pages"): every write the API takes,
// v2 and v1, reaches an open page that shows what it changed, without a reload; a reorder made in
// another window reaches this one; after the server restarts, an open page reads again what it shows
// (a change made while it reconnected included), and its dot says "Live" only once it is current.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCOPES } from '@threadwork/shared/schemas';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, CHROMIUM } from '../../../extension/test/helpers/browser.ts';
import { DEMO_CREDENTIALS } from '../src/seed/demo.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { apiOf, demoV1Token, hooks, liveText, startReceiver } from './helpers/console-browser.ts';
import { freshDatabase } from './helpers/database.ts';
import { consoleApi, offlineResolver } from './helpers/server.ts';

const THREAD = '18c2f0a1b2c3d4e5';

let browser: Browser;
let server: RunningServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let work: string;
let port = 0;
const api = apiOf(() => server.origin);

/** The server on its database file and its port: a restart finds both again. */
async function startOurServer() {
  server = await startServer({
    port,
    ...(await freshDatabase(join(work, 'live.db'))),
    demo: true,
    console: true,
    testControl: true,
    allowInsecureWebhooks: true,
    webhookTimeScale: 0.001,
    resolveHost: offlineResolver,
  });
  port = Number(new URL(server.origin).port);
}

beforeAll(async () => {
  if (!BROWSER_TESTS) return;
  work = mkdtempSync(join(tmpdir(), 'threadwork-console-live-'));
  receiver = await startReceiver();
  await startOurServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  await fetch(`${server.origin}/`, { headers: { accept: 'text/html' } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A page at `path`, once its dot says Live (its reads are current). */
async function open(path: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.setDefaultTimeout(4000);
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${server.origin}${path}`);
  await expect.poll(() => liveText(page)).toBe('Live');
  return page;
}

describe.runIf(BROWSER_TESTS)('the console’s live pages', { timeout: 60_000 }, () => {
  it('shows every write of v2 and v1 on the open page that shows what it changed, without a reload', async () => {
    const pages = {
      overview: await open('/'),
      board: await open('/boards/brd_product'),
      mail: await open('/mail'),
      thread: await open(`/mail/${THREAD}`),
      deliveries: await open('/deliveries'),
      keys: await open('/keys'),
      sale: await open('/tasks/tsk_demo_s03'),
    };
    const board = hooks(() => pages.board);
    const loads = new Map<Page, number>();
    for (const page of Object.values(pages))
      page.on('load', () => loads.set(page, (loads.get(page) ?? 0) + 1));
    const shown: string[] = [];
    /** One write, and what the open page shows within a few seconds (polled, never reloaded). */
    async function write(
      name: string,
      act: () => Promise<{ status: number }>,
      check: () => Promise<unknown>,
    ) {
      const answer = await act();
      expect(answer.status, name).toBeLessThan(300);
      await expect.poll(check, { timeout: 5000, message: name }).toBeTruthy();
      shown.push(name);
    }
    const text = (page: Page, selector: string) => page.locator(selector).allTextContents();
    // Sending mail and deleting drafts are opt-in scopes: a key the console makes (it may grant any).
    const mailer = (
      (await (
        await consoleApi(server, 'keys', {
          method: 'POST',
          body: JSON.stringify({ name: 'Walk mailer', type: 'v2', scopes: [...SCOPES] }),
        })
      ).json()) as { data: { secret: string } }
    ).data.secret;
    const v1Token = await demoV1Token(server.origin);
    const v1 = async (path: string, body: unknown) => {
      const response = await fetch(`${server.origin}/api/v1${path}`, {
        method: 'POST',
        headers: { 'x-access-token': v1Token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answered = await response.text();
      return { status: response.status, body: answered ? JSON.parse(answered) : null };
    };

    // Boards, lists and custom fields
    let made = '';
    await write(
      'POST /v2/boards',
      async () => {
        const answer = await api('/boards', {
          method: 'POST',
          body: { team_id: 'team_northwind', name: 'Walked' },
        });
        made = answer.body.data.id;
        return answer;
      },
      () => pages.overview.locator(`[data-board-id="${made}"]`).count(),
    );
    await write(
      'PATCH /v2/boards/{id}',
      () => api('/boards/brd_product', { method: 'PATCH', body: { name: 'Product, walked' } }),
      async () => (await pages.board.locator('h1').textContent())?.includes('Product, walked'),
    );
    let listId = '';
    await write(
      'POST /v2/boards/{id}/lists',
      async () => {
        const answer = await api('/boards/brd_product/lists', {
          method: 'POST',
          body: { name: 'Walk list' },
        });
        listId = answer.body.data.id;
        return answer;
      },
      () => board.list(listId).count(),
    );
    await write(
      'PATCH /v2/lists/{id}',
      () => api(`/lists/${listId}`, { method: 'PATCH', body: { name: 'Walk list, renamed' } }),
      async () => (await board.list(listId).locator('h2').textContent())?.includes('Walk list, renamed'),
    );

    // Tasks (v2)
    let taskId = '';
    await write(
      'POST /v2/tasks',
      async () => {
        const answer = await api('/tasks', {
          method: 'POST',
          body: { list_id: 'lst_backlog', title: 'Walk task' },
        });
        taskId = answer.body.data.id;
        return answer;
      },
      () => board.card(taskId).count(),
    );
    const task = await open(`/tasks/${taskId}`);
    await write(
      'PATCH /v2/tasks/{id} (shade)',
      () => api(`/tasks/${taskId}`, { method: 'PATCH', body: { shade: 'teal' } }),
      async () => (await board.card(taskId).getAttribute('class'))?.includes('shade-teal'),
    );
    await write(
      'POST /v2/tasks/{id}/complete',
      () => api(`/tasks/${taskId}/complete`, { method: 'POST' }),
      async () => (await board.card(taskId).getAttribute('data-completed')) === 'true',
    );
    await write(
      'POST /v2/tasks/{id}/move',
      () => api(`/tasks/${taskId}/move`, { method: 'POST', body: { list_id: 'lst_review' } }),
      () => board.list('lst_review').locator(`[data-task-id="${taskId}"]`).count(),
    );
    await write(
      'POST /v2/tasks/{id}/reorder (records no event)',
      () => api(`/tasks/${taskId}/reorder`, { method: 'POST', body: { position: 'bottom' } }),
      async () => (await board.cardIds('lst_review')).at(-1) === taskId,
    );
    await write(
      'POST /v2/tasks/{id}/threads',
      () => api(`/tasks/${taskId}/threads`, { method: 'POST', body: { thread_id: THREAD } }),
      async () =>
        (await board.card(taskId).textContent())?.includes('Threads1') &&
        (await pages.thread.locator(`a[href="/tasks/${taskId}"]`).count()) === 1,
    );
    let fieldId = '';
    await write(
      'POST /v2/boards/{id}/custom-fields',
      async () => {
        const answer = await api('/boards/brd_product/custom-fields', {
          method: 'POST',
          body: { name: 'Walk field', type: 'text' },
        });
        fieldId = answer.body.data.id;
        return answer;
      },
      async () => (await text(task, 'dl.custom dt')).includes('Walk field'),
    );
    await write(
      'PATCH /v2/custom-fields/{id}',
      () => api(`/custom-fields/${fieldId}`, { method: 'PATCH', body: { name: 'Walk field, renamed' } }),
      async () => (await text(task, 'dl.custom dt')).includes('Walk field, renamed'),
    );
    await write(
      'PATCH /v2/tasks/{id} (custom field)',
      () =>
        api(`/tasks/${taskId}`, {
          method: 'PATCH',
          body: { custom_fields: [{ field_id: fieldId, value: 'typed elsewhere' }] },
        }),
      async () => (await task.locator(`#field-${fieldId}`).inputValue()) === 'typed elsewhere',
    );

    // Mail
    const row = (threadId: string) =>
      pages.mail.locator(`[data-testid="console-thread"][data-thread-id="${threadId}"]`);
    await write(
      'POST /v2/email-threads/{id}/read-state',
      () => api('/email-threads/18c2f0a1b2c3d4f0/read-state', { method: 'POST', body: { read: true } }),
      async () => (await row('18c2f0a1b2c3d4f0').getAttribute('class')) === '',
    );
    await write(
      'POST /v2/email-threads/{id}/labels',
      () => api('/email-threads/18c2f0a1b2c3d4f0/labels', { method: 'POST', body: { add: ['Label_1'] } }),
      async () => (await row('18c2f0a1b2c3d4f0').textContent())?.includes('Clients'),
    );
    await write(
      'POST /v2/email-threads/{id}/snooze',
      () =>
        api('/email-threads/18c2f0a1b2c3d520/snooze', {
          method: 'POST',
          body: { until: new Date(Date.now() + 86_400_000).toISOString() },
        }),
      async () => !(await row('18c2f0a1b2c3d520').locator('.labels').textContent())?.includes('Inbox'),
    );
    let draftId = '';
    await write(
      'POST /v2/email-threads/{id}/drafts',
      async () => {
        const answer = await api(`/email-threads/${THREAD}/drafts`, {
          method: 'POST',
          body: { body: 'A walked draft', is_html: false },
        });
        draftId = answer.body.data.draft_id;
        return answer;
      },
      async () =>
        (await text(pages.thread, '.messages li')).some((entry) => entry.includes('A walked draft')),
    );
    await write(
      'POST /v2/drafts/{id}/send',
      () => api(`/drafts/${draftId}/send`, { method: 'POST', key: mailer }),
      async () => (await pages.thread.locator('.messages li').last().textContent())?.includes('Sent'),
    );
    let newDraft = '';
    await write(
      'POST /v2/drafts',
      async () => {
        const answer = await api('/drafts', {
          method: 'POST',
          body: { to: ['lee@orchard.test'], subject: 'A walked new draft', body: 'Hello', is_html: false },
        });
        newDraft = answer.body.data.draft_id;
        return answer;
      },
      async () => (await pages.mail.locator('.threads').textContent())?.includes('A walked new draft'),
    );
    await write(
      'DELETE /v2/drafts/{id}',
      () => api(`/drafts/${newDraft}`, { method: 'DELETE', key: mailer }),
      async () => !(await pages.mail.locator('main').textContent())?.includes('A walked new draft'),
    );
    await write(
      'POST /v2/email-threads/{id}/reply',
      () =>
        api(`/email-threads/${THREAD}/reply`, {
          method: 'POST',
          body: { body: 'A walked reply', is_html: false },
        }),
      async () =>
        (await text(pages.thread, '.messages li')).some((entry) => entry.includes('A walked reply')),
    );
    await write(
      'POST /v2/emails',
      () =>
        api('/emails', {
          method: 'POST',
          key: mailer,
          body: { to: ['raj@lumen.test'], subject: 'A walked email', body: 'Hi Raj', is_html: false },
        }),
      async () => (await pages.mail.locator('.threads').textContent())?.includes('A walked email'),
    );
    await write(
      'POST /_control/inbound-message',
      () =>
        api('/_control/inbound-message', {
          method: 'POST',
          body: {
            mailbox: DEMO_CREDENTIALS.email,
            thread_id: THREAD,
            message: { from: { email: 'bob@stone.test', name: 'Bob Stone' }, body_text: 'A walked inbound' },
          },
        }),
      async () =>
        (await text(pages.thread, '.messages li')).some((entry) => entry.includes('A walked inbound')),
    );
    await write(
      'POST /v2/email-threads/{id}/analysis (its AI field changes on the linked task)',
      () => api('/email-threads/18c2f0a1b2c3d500/analysis', { method: 'POST' }),
      async () => (await pages.sale.locator('dl.custom').textContent())?.includes('Waiting'),
    );

    // Webhooks
    let subscriptionId = '';
    const block = () => pages.deliveries.locator(`[data-subscription-id="${subscriptionId}"]`);
    await write(
      'POST /v2/webhooks/subscriptions',
      async () => {
        const answer = await api('/webhooks/subscriptions', {
          method: 'POST',
          body: { target_url: receiver.url, events: ['task.created'] },
        });
        subscriptionId = answer.body.data.id;
        return answer;
      },
      () => block().count(),
    );
    await write(
      'PATCH /v2/webhooks/subscriptions/{id}',
      () =>
        api(`/webhooks/subscriptions/${subscriptionId}`, { method: 'PATCH', body: { status: 'disabled' } }),
      async () => (await block().textContent())?.includes('paused by hand'),
    );
    await write(
      'POST /v2/webhooks/subscriptions/{id}/rotate-secret',
      () => api(`/webhooks/subscriptions/${subscriptionId}/rotate-secret`, { method: 'POST' }),
      () => block().locator('[data-rotated]').count(),
    );
    let deliveryId = '';
    await write(
      'POST /v2/webhooks/subscriptions/{id}/test',
      async () => {
        const answer = await api(`/webhooks/subscriptions/${subscriptionId}/test`, { method: 'POST' });
        deliveryId = answer.body.data.id;
        return answer;
      },
      () => pages.deliveries.locator(`[data-delivery-id="${deliveryId}"]`).count(),
    );
    await write(
      'POST /v2/webhooks/deliveries/{id}/replay',
      async () => {
        const answer = await api(`/webhooks/deliveries/${deliveryId}/replay`, { method: 'POST' });
        deliveryId = answer.body.data.id;
        return answer;
      },
      () => pages.deliveries.locator(`[data-delivery-id="${deliveryId}"]`).count(),
    );
    await write(
      'DELETE /v2/webhooks/subscriptions/{id}',
      () => api(`/webhooks/subscriptions/${subscriptionId}`, { method: 'DELETE' }),
      async () => (await block().count()) === 0,
    );

    // Keys
    let keyId = '';
    await write(
      'POST /v2/api-keys',
      async () => {
        const answer = await api('/api-keys', { method: 'POST', body: { name: 'Walk key', type: 'v2' } });
        keyId = answer.body.data.id;
        return answer;
      },
      () => pages.keys.locator(`[data-key-id="${keyId}"]`).count(),
    );
    await write(
      'DELETE /v2/api-keys/{id}',
      () => api(`/api-keys/${keyId}`, { method: 'DELETE' }),
      async () => (await pages.keys.locator(`[data-key-id="${keyId}"]`).count()) === 0,
    );

    // v1
    let itemId = '';
    await write(
      'POST /api/v1/items',
      async () => {
        const answer = await v1('/items', { listId: 'lst_backlog', title: 'Walk v1' });
        itemId = answer.body.id;
        return answer;
      },
      () => board.card(itemId).count(),
    );
    let fromEmail = '';
    await write(
      'POST /api/v1/items/createFromEmail',
      async () => {
        const answer = await v1('/items/createFromEmail', {
          providerId: 'gmail',
          listId: 'lst_backlog',
          messageId: '18c2f0a1b2c3d510',
          threadId: '18c2f0a1b2c3d510',
        });
        fromEmail = answer.body.id;
        return answer;
      },
      () => board.card(fromEmail).count(),
    );
    await write(
      'POST /api/v1/items/markComplete',
      () => v1('/items/markComplete', { itemId }),
      async () => (await board.card(itemId).getAttribute('data-completed')) === 'true',
    );
    await write(
      'POST /api/v1/items/markIncomplete',
      () => v1('/items/markIncomplete', { itemId }),
      async () => (await board.card(itemId).getAttribute('data-completed')) === 'false',
    );
    await write(
      'POST /api/v1/items/assignTask',
      () => v1('/items/assignTask', { itemId, assigneeEmail: 'grace@northwind.test' }),
      async () => (await board.card(itemId).textContent())?.includes('Grace Hopper'),
    );
    await write(
      'POST /api/v1/items/unassignTask',
      () => v1('/items/unassignTask', { itemId, assigneeEmail: 'grace@northwind.test' }),
      async () => !(await board.card(itemId).textContent())?.includes('Grace Hopper'),
    );
    await write(
      'POST /api/v1/items/moveTaskToList',
      () => v1('/items/moveTaskToList', { itemId, listId: 'lst_doing' }),
      () => board.list('lst_doing').locator(`[data-task-id="${itemId}"]`).count(),
    );
    for (const object of ['items', 'lists'] as const) {
      let hookId = '';
      const hook = () => pages.deliveries.locator(`[data-subscription-id="${hookId}"]`);
      await write(
        `POST /api/v1/${object}/subscribe`,
        async () => {
          const answer = await v1(`/${object}/subscribe`, {
            action: object === 'items' ? 'itemCompleted' : 'movedToList',
            entityId: object === 'items' ? 'brd_product' : 'lst_backlog',
            webhookURL: receiver.url,
          });
          hookId = answer.body.id;
          return answer;
        },
        () => hook().count(),
      );
      await write(
        `POST /api/v1/${object}/unsubscribe`,
        () => v1(`/${object}/unsubscribe`, { subscriptionId: hookId }),
        async () => (await hook().count()) === 0,
      );
    }

    // Archive and delete, last: they take the cards away.
    await write(
      'POST /v2/tasks/{id}/archive',
      () => api(`/tasks/${itemId}/archive`, { method: 'POST' }),
      async () => (await board.card(itemId).count()) === 0,
    );
    await write(
      'DELETE /v2/tasks/{id}',
      () => api(`/tasks/${taskId}`, { method: 'DELETE' }),
      async () =>
        (await board.card(taskId).count()) === 0 &&
        (await task.locator('main').textContent())?.includes('Not found'),
    );

    // CRM writes change nothing a console page shows (the task page shows a contact's id only), and a
    // token is shown nowhere: they are taken, and no page needs to follow them.
    for (const [path, body] of [
      ['/contacts', { team_id: 'team_northwind', name: 'Walk Contact' }],
      ['/companies', { team_id: 'team_northwind', name: 'Walk Company' }],
    ] as const) {
      const created = await api(path, { method: 'POST', body });
      expect(created.status).toBe(200);
      expect(
        (await api(`${path}/${created.body.data.id}`, { method: 'PATCH', body: { name: 'Renamed' } })).status,
      ).toBe(200);
    }

    // Every page stayed the page it was: nothing was reloaded, and each is still current.
    expect([...loads.values()].filter((count) => count > 0)).toEqual([]);
    for (const page of Object.values(pages)) expect(await liveText(page)).toBe('Live');
    expect(shown.length).toBeGreaterThanOrEqual(40);
    for (const page of [...Object.values(pages), task]) await page.close();
  });

  it('reorders made in another window, or through the API, reach this window', async () => {
    const a = await open('/boards/brd_product');
    const b = await open('/boards/brd_product');
    const ofA = hooks(() => a);
    const before = await ofA.cardIds('lst_backlog');
    // Window B: Down on the first card's handle.
    await b.locator(`[data-task-id="${before[0]}"] [data-move-handle]`).focus();
    await b.keyboard.press('ArrowDown');
    await expect.poll(() => ofA.cardIds('lst_backlog')).toEqual([before[1], before[0], ...before.slice(2)]);
    // The API: the last card to the top.
    const last = before.at(-1)!;
    await api(`/tasks/${last}/reorder`, { method: 'POST', body: { position: 'top' } });
    await expect.poll(async () => (await ofA.cardIds('lst_backlog'))[0]).toBe(last);
    const stored = (await api('/tasks?list_id=lst_backlog&limit=200')).body.data.map(
      (task: { id: string }) => task.id,
    );
    await expect.poll(() => ofA.cardIds('lst_backlog')).toEqual(stored);
    await expect.poll(() => hooks(() => b).cardIds('lst_backlog')).toEqual(stored);
    expect(await liveText(a)).toBe('Live');
    await a.close();
    await b.close();
  });

  it('never draws an answer that arrives late over a newer one: a board read held past a move', async () => {
    const page = await open('/boards/brd_product');
    const { list, cardIds } = hooks(() => page);
    const moved = (await cardIds('lst_backlog'))[0]!;
    // The board's next read is answered by the server at once, but reaches the page only when let go
    // (installed before the change below, so that read cannot slip past it; later reads pass).
    let read = () => {};
    const answered = new Promise<void>((resolve) => {
      read = resolve;
    });
    let release = () => {};
    const letGo = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = false;
    await page.route(`${server.origin}/_console/api/boards/brd_product`, async (route) => {
      if (held) return route.continue();
      held = true;
      const response = await route.fetch();
      read();
      await letGo;
      await route.fulfill({ response });
    });
    // A list renamed reads the whole board again; the server answers it before the move below.
    expect((await api('/lists/lst_review', { method: 'PATCH', body: { name: 'In review' } })).status).toBe(
      200,
    );
    await answered;
    const moveAnswer = await api(`/tasks/${moved}/move`, {
      method: 'POST',
      body: { list_id: 'lst_doing', position: 'top' },
    });
    expect(moveAnswer.status).toBe(200);
    await expect.poll(() => cardIds('lst_doing')).toContain(moved);
    // The older board answer arrives now: its list name is drawn, but not its cards from before the move.
    release();
    await expect.poll(() => list('lst_review').locator('h2').textContent()).toContain('In review');
    const stored = async (listId: string) =>
      (await api(`/tasks?list_id=${listId}&limit=200`)).body.data.map((task: { id: string }) => task.id);
    expect(await cardIds('lst_doing')).toEqual(await stored('lst_doing'));
    expect(await cardIds('lst_backlog')).toEqual(await stored('lst_backlog'));
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.close();
  });

  it('reads again what it shows after the server restarts, a change made while it reconnected included', async () => {
    const board = await open('/boards/brd_product');
    const other = await open('/');
    await server.close();
    // While the server is away, the dot says so; a page opened meanwhile (in the app) says it cannot read.
    await expect.poll(() => liveText(board)).toBe('Reconnecting…');
    await other.getByRole('link', { name: 'Mail' }).click();
    await other.getByRole('alert').waitFor();
    expect(await liveText(other)).not.toBe('Live');

    await startOurServer();
    // Made as soon as the server is back: the pages may not have reconnected yet.
    const made = await api('/tasks', {
      method: 'POST',
      body: { list_id: 'lst_backlog', title: 'Made during the restart' },
    });
    await hooks(() => board)
      .card(made.body.data.id)
      .waitFor({ timeout: 6000 });
    await expect.poll(() => liveText(board), { timeout: 6000 }).toBe('Live');
    const stored = (await api('/tasks?list_id=lst_backlog&limit=200')).body.data.map(
      (task: { id: string }) => task.id,
    );
    await expect.poll(() => hooks(() => board).cardIds('lst_backlog')).toEqual(stored);
    // The page that could not read reads again, and its error goes.
    await expect.poll(() => other.getByRole('alert').count(), { timeout: 6000 }).toBe(0);
    await other.locator(`[data-testid="console-thread"][data-thread-id="${THREAD}"]`).waitFor();
    await expect.poll(() => liveText(other)).toBe('Live');
    await board.close();
    await other.close();
  });
});
