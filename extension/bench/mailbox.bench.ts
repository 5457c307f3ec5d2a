/**
 * The extension's budgets, measured on the built extension in Debian's Chromium against a live reference
 * server:
 * - the mailbox content script under 40 KB minified (ratio to the budget); the panel's page (its frame: Preact,
 *   the task panel, the settings, zod, loaded on first open) is reported beside it, with no budget of its own;
 * - the "Create task" button visible within 50 ms of the thread's heading appearing (median), beside the
 *   page's own MutationObserver reaction to the same change as the baseline;
 * - the panel's first open (its frame's page loaded) under 100 ms median, beside a later open in the same page
 *   (frame already loaded) as the baseline;
 * - click-to-confirmed under 150 ms median (submit click to the confirmation, timed in the panel's frame),
 *   beside the bare `POST /v2/tasks` from Node as the baseline;
 * - on a service that answers every request 3 s late (a loopback proxy), Create usable within 3.5 s of the
 *   click that opens the panel, with nothing kept from an earlier use but the last choice (so: one round
 *   trip, the requests in parallel); beside it, the same with the answers kept from the last use.
 *
 * Run: node extension/bench/mailbox.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ThreadworkClient } from '@threadwork/shared';
import type { Page } from 'playwright-core';
import { report, summarise } from '../../scripts/bench-kit.ts';
import { FORM_SHOWN } from '../lib/frame.ts';
import {
  buildTestExtension,
  configure,
  launchWithExtension,
  MAILBOX_URL,
  panel,
  panelFrame,
} from '../test/helpers/browser.ts';
import { startProxy } from '../test/helpers/proxy.ts';
import { SEED, startServer } from '../test/helpers/server.ts';

const ROOT = join(import.meta.dirname, '..');
const BUTTON_SAMPLES = 30;
const CREATE_SAMPLES = 20;
const OPEN_SAMPLES = 10;
const SLOW_SAMPLES = 3;
const SLOW_MS = 3000;

/** A timing in milliseconds against its budget, with its p95 and the median of a baseline from the same run. */
function reportMedian(
  name: string,
  samples: number[],
  limit: number,
  baseline: { label: string; samples: number[] },
) {
  const { median, p95 } = summarise(samples);
  report({
    name,
    value: median,
    unit: 'ms',
    budget: { limit, better: 'lower' },
    context: { p95, [baseline.label]: summarise(baseline.samples).median, 'ratio to budget': median / limit },
  });
}

// 1. Size of the production content script, and of what the panel's page loads.
execFileSync(join(ROOT, 'node_modules/.bin/wxt'), ['build'], { cwd: ROOT, stdio: 'ignore' });
const output = join(ROOT, '.output/chrome-mv3');
const bytes = statSync(join(output, 'content-scripts/gmail.js')).size;
const panelHtml = readFileSync(join(output, 'panel.html'), 'utf8');
const panelBytes = [...panelHtml.matchAll(/(?:src|href)="(\/chunks\/[^"]+\.js)"/g)]
  .map((match) => statSync(join(output, match[1]!)).size)
  .reduce((sum, size) => sum + size, 0);
report({
  name: 'mailbox content script, minified',
  value: bytes / 1024,
  unit: 'KB',
  budget: { limit: 40, better: 'lower' },
  context: {
    'ratio to budget': bytes / 1024 / 40,
    "panel frame's scripts, loaded on first open (KB)": panelBytes / 1024,
  },
});

const [server] = await Promise.all([startServer(), buildTestExtension()]);
const browser = await launchWithExtension();
const proxy = await startProxy(server.origin);
try {
  // Settings through the options page, as a user would.
  await (await configure(browser, server.origin)).close();

  // 2. Heading appears → button visible, measured inside the page.
  const page = await browser.context.newPage();
  await page.goto(MAILBOX_URL);
  const button: number[] = [];
  const observer: number[] = [];
  for (let i = 0; i < BUTTON_SAMPLES; i++) {
    const sample = await page.evaluate(
      (index) =>
        new Promise<{ button: number; observer: number }>((resolve) => {
          const views = document.getElementById('views')!;
          for (const view of Array.from(views.children)) (view as HTMLElement).style.display = 'none';
          const view = document.createElement('div');
          view.setAttribute('role', 'main');
          view.innerHTML = `<div gh="mtb"></div><h2 class="hP" data-legacy-thread-id="${(0x18c2f0a1b2c40000 + index).toString(16)}">Bench ${index}</h2>`;
          let observed = Number.NaN;
          const start = performance.now();
          new MutationObserver((_, self) => {
            self.disconnect();
            observed = performance.now() - start;
          }).observe(views, { childList: true });
          const seen = () => {
            const host = view.querySelector('[data-threadwork-host="button"]');
            const visible = host?.shadowRoot?.querySelector('[data-testid="threadwork-create-task"]');
            if (visible && (visible as HTMLElement).getClientRects().length > 0) {
              resolve({ button: performance.now() - start, observer: observed });
            } else requestAnimationFrame(seen);
          };
          new MutationObserver((_, self) => {
            if (view.querySelector('[data-threadwork-host="button"]')) {
              self.disconnect();
              seen();
            }
          }).observe(view, { childList: true, subtree: true });
          views.append(view);
        }),
      i,
    );
    button.push(sample.button);
    observer.push(sample.observer);
  }
  reportMedian('heading appears → button visible (median)', button, 50, {
    label: 'page MutationObserver baseline (median)',
    samples: observer,
  });

  // 3. Button click → the panel's form shown, on a fresh page (the frame's page loads) and on a second open;
  // timed by the browser's clock: the click in the page, and the form's user timing mark in the frame for the
  // first open, the frame made visible for the later one (the form is drawn already).
  const firstOpen: number[] = [];
  const laterOpen: number[] = [];
  /** Clicks the button from inside the page; answers when the click happened, by the browser's clock. */
  const clickTheButton = (on: Page) =>
    on.evaluate(
      () =>
        new Promise<number>((resolve) => {
          document.addEventListener('click', () => resolve(performance.timeOrigin + performance.now()), {
            capture: true,
            once: true,
          });
          document
            .querySelector('[data-threadwork-host="button"]')!
            .shadowRoot!.querySelector<HTMLElement>('[data-testid="threadwork-create-task"]')!
            .click();
        }),
    );
  const frameShownAt = (on: Page) =>
    on.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const look = () => {
            const frame = document
              .querySelector('[data-threadwork-host="panel"]')
              ?.shadowRoot?.querySelector('iframe.tw-open');
            if (frame) resolve(performance.timeOrigin + performance.now());
            else requestAnimationFrame(look);
          };
          look();
        }),
    );
  for (let i = 0; i < OPEN_SAMPLES; i++) {
    // A page of its own each time (a `goto` to the same address would only change its hash).
    await page.goto('about:blank');
    await page.goto(MAILBOX_URL);
    await page.evaluate(() => {
      location.hash = '#inbox/FMfcgzQXJroof';
    });
    await page.getByTestId('threadwork-create-task').waitFor();
    const clickedAt = await clickTheButton(page);
    const frame = await panelFrame(page);
    await frame.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, FORM_SHOWN);
    firstOpen.push(
      (await frame.evaluate(
        (mark) => performance.timeOrigin + performance.getEntriesByName(mark)[0]!.startTime,
        FORM_SHOWN,
      )) - clickedAt,
    );
    await page.keyboard.press('Escape');
    await page.locator('iframe[data-threadwork-frame]').waitFor({ state: 'hidden' });
    const shown = frameShownAt(page);
    const again = await clickTheButton(page);
    laterOpen.push((await shown) - again);
  }
  reportMedian('button click → panel shown, first open (median)', firstOpen, 100, {
    label: 'a later open in the same page (median)',
    samples: laterOpen,
  });

  // 4. Click-to-confirmed on a real thread, and the bare API call from Node.
  await page.goto(MAILBOX_URL);
  await page.evaluate(() => {
    location.hash = '#inbox/FMfcgzQXJlunch';
  });
  await page.getByTestId('threadwork-create-task').click();
  await panel(page)
    .getByTestId('threadwork-list')
    .locator(`option[value="${SEED.todo}"]`)
    .waitFor({ state: 'attached' });
  const frame = await panelFrame(page);
  const clicks: number[] = [];
  for (let i = 0; i < CREATE_SAMPLES; i++) {
    // After each create the panel shows its confirmation: "Create another" brings the form back.
    if (i > 0) await panel(page).getByTestId('threadwork-create-another').click();
    await panel(page).getByTestId('threadwork-title').fill(`Bench task ${i}`);
    // Timed inside the frame: from the click reaching the panel to the confirmation naming this task.
    await frame.evaluate((title) => {
      const times: { click?: number; done?: number } = {};
      (window as unknown as { benchTimes: typeof times }).benchTimes = times;
      document.addEventListener('click', () => (times.click ??= performance.now()), { capture: true });
      new MutationObserver((_, self) => {
        const shown = document.querySelector('[data-testid="threadwork-confirmation"]');
        if (shown?.textContent?.includes(title)) {
          times.done = performance.now();
          self.disconnect();
        }
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, `Bench task ${i}`);
    await panel(page).getByTestId('threadwork-submit').click();
    await frame.waitForFunction(
      () => (window as unknown as { benchTimes: { done?: number } }).benchTimes.done,
    );
    clicks.push(
      await frame.evaluate(() => {
        const times = (window as unknown as { benchTimes: { click: number; done: number } }).benchTimes;
        return times.done - times.click;
      }),
    );
  }
  const api = new ThreadworkClient({ baseUrl: `${server.origin}/v2`, apiKey: SEED.v2Key });
  const direct: number[] = [];
  for (let i = 0; i < CREATE_SAMPLES; i++) {
    const start = performance.now();
    await api.tasks.create({ list_id: SEED.todo, thread_id: SEED.lunch.id, title: `Direct ${i}` });
    direct.push(performance.now() - start);
  }
  reportMedian('click → confirmed, task from thread (median)', clicks, 150, {
    label: 'POST /v2/tasks from Node baseline (median)',
    samples: direct,
  });

  // 5. A slow service: every answer 3 s late. The last create (through the proxy, at full speed) leaves the
  // session token and the remembered choice, as a returning user has them.
  await (await configure(browser, proxy.origin)).close();
  const warm = await browser.context.newPage();
  await warm.goto(MAILBOX_URL);
  await warm.evaluate(() => {
    location.hash = '#inbox/FMfcgzQXJroof';
  });
  await warm.getByTestId('threadwork-create-task').click();
  await panel(warm).getByTestId('threadwork-submit').click();
  await panel(warm).getByTestId('threadwork-confirmation').waitFor();
  await warm.close();
  proxy.set({ kind: 'slow', ms: SLOW_MS });
  const worker = browser.context.serviceWorkers()[0]!;
  const forgetKept = () =>
    worker.evaluate(() =>
      (
        globalThis as unknown as { chrome: { storage: { local: { remove(key: string): Promise<void> } } } }
      ).chrome.storage.local.remove('panelAnswers'),
    );
  /**
   * Click on the button → Create enabled, in a new mailbox tab; timed by the browser's clock, the click in the
   * page and Create in the panel's frame.
   */
  const usableAfter = async () => {
    await proxy.idle();
    const tab = await browser.context.newPage();
    await tab.goto(MAILBOX_URL);
    await tab.evaluate(() => {
      location.hash = '#inbox/FMfcgzQXJlunch';
    });
    await tab.getByTestId('threadwork-create-task').waitFor();
    await tab.evaluate(() =>
      document.addEventListener(
        'click',
        () => {
          (window as unknown as { clickedAt?: number }).clickedAt ??=
            performance.timeOrigin + performance.now();
        },
        { capture: true },
      ),
    );
    await tab.getByTestId('threadwork-create-task').click();
    const usableAt = await (await panelFrame(tab)).evaluate(
      () =>
        new Promise<number>((resolve) => {
          const look = () => {
            const submit = document.querySelector<HTMLButtonElement>('[data-testid="threadwork-submit"]');
            if (submit !== null && !submit.disabled) resolve(performance.timeOrigin + performance.now());
            else requestAnimationFrame(look);
          };
          look();
        }),
    );
    const clickedAt = await tab.evaluate(() => (window as unknown as { clickedAt: number }).clickedAt);
    await tab.close();
    return usableAt - clickedAt;
  };
  const fresh: number[] = [];
  const kept: number[] = [];
  for (let i = 0; i < SLOW_SAMPLES; i++) {
    await forgetKept();
    fresh.push(await usableAfter());
    // The panel just now kept what the service answered: the next one shows it at once.
    kept.push(await usableAfter());
  }
  reportMedian(
    `service answering ${SLOW_MS / 1000} s late: click → Create usable, nothing kept but the last choice (median)`,
    fresh,
    3500,
    { label: 'with the answers kept from the last use (median)', samples: kept },
  );
} finally {
  await proxy.stop();
  await browser.close();
  await server.stop();
}
