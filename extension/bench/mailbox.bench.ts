/**
 * The extension's budgets, measured on the built extension in Debian's Chromium against a live reference
 * server:
 * - the mailbox content script under 40 KB minified (ratio to the budget); the panel's own chunk (Preact and
 *   everything the panel shows, imported on first open) is reported beside it, with no budget of its own;
 * - the "Create task" button visible within 50 ms of the thread's heading appearing (median), beside the
 *   page's own MutationObserver reaction to the same change as the baseline;
 * - the panel's first open (its chunk imported) under 100 ms median, beside a later open in the same page
 *   (chunk already loaded) as the baseline;
 * - click-to-confirmed under 150 ms median (submit click to the confirmation, timed in the page), beside the bare
 *   `POST /v2/tasks` from Node as the baseline.
 *
 * Run: node extension/bench/mailbox.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ThreadworkClient } from '@threadwork/shared';
import { report, summarise } from '../../scripts/bench-kit.ts';
import { buildTestExtension, launchWithExtension, MAILBOX_URL } from '../test/helpers/browser.ts';
import { SEED, startServer } from '../test/helpers/server.ts';

const ROOT = join(import.meta.dirname, '..');
const BUTTON_SAMPLES = 30;
const CREATE_SAMPLES = 20;
const OPEN_SAMPLES = 10;

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

// 1. Size of the production content script.
execFileSync(join(ROOT, 'node_modules/.bin/wxt'), ['build'], { cwd: ROOT, stdio: 'ignore' });
const bytes = statSync(join(ROOT, '.output/chrome-mv3/content-scripts/gmail.js')).size;
const panelBytes = statSync(join(ROOT, '.output/chrome-mv3/panel.js')).size;
report({
  name: 'mailbox content script, minified',
  value: bytes / 1024,
  unit: 'KB',
  budget: { limit: 40, better: 'lower' },
  context: {
    'ratio to budget': bytes / 1024 / 40,
    'panel chunk, loaded on first open (KB)': panelBytes / 1024,
  },
});

const [server] = await Promise.all([startServer(), buildTestExtension()]);
const browser = await launchWithExtension();
try {
  // Settings through the options page, as a user would.
  const options = await browser.context.newPage();
  await options.goto(`chrome-extension://${browser.extensionId}/options.html`);
  await options.getByTestId('threadwork-settings-origin').fill(server.origin);
  await options.getByTestId('threadwork-settings-email').fill(SEED.credentials.email);
  await options.getByTestId('threadwork-settings-api-key').fill(SEED.credentials.apiKey);
  await options.getByTestId('threadwork-settings-api-secret').fill(SEED.credentials.apiSecret);
  await options.getByTestId('threadwork-settings-key-name').fill(SEED.credentials.keyName);
  await options.getByTestId('threadwork-settings-save').click();
  await options.getByTestId('threadwork-settings-saved').waitFor();
  await options.close();

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

  // 3. Button click → the panel's title field, on a fresh page (the chunk is imported) and on a second open.
  const firstOpen: number[] = [];
  const laterOpen: number[] = [];
  const timeOpen = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const start = performance.now();
          const ready = () => {
            const root = document.querySelector('[data-threadwork-host="panel"]')?.shadowRoot;
            if (root?.querySelector('[data-testid="threadwork-title"]')) resolve(performance.now() - start);
            else requestAnimationFrame(ready);
          };
          document
            .querySelector('[data-threadwork-host="button"]')!
            .shadowRoot!.querySelector<HTMLElement>('[data-testid="threadwork-create-task"]')!
            .click();
          ready();
        }),
    );
  for (let i = 0; i < OPEN_SAMPLES; i++) {
    await page.goto(MAILBOX_URL);
    await page.evaluate(() => {
      location.hash = '#inbox/FMfcgzQXJroof';
    });
    await page.getByTestId('threadwork-create-task').waitFor();
    firstOpen.push(await timeOpen());
    await page.keyboard.press('Escape');
    await page.getByTestId('threadwork-panel').waitFor({ state: 'detached' });
    laterOpen.push(await timeOpen());
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
  await page
    .getByTestId('threadwork-list')
    .locator(`option[value="${SEED.todo}"]`)
    .waitFor({ state: 'attached' });
  const clicks: number[] = [];
  for (let i = 0; i < CREATE_SAMPLES; i++) {
    // After each create the panel shows its confirmation: "Create another" brings the form back.
    if (i > 0) await page.getByTestId('threadwork-create-another').click();
    await page.getByTestId('threadwork-title').fill(`Bench task ${i}`);
    // Timed inside the page: from the click reaching the panel to the confirmation naming this task.
    await page.evaluate((title) => {
      const times: { click?: number; done?: number } = {};
      (window as unknown as { benchTimes: typeof times }).benchTimes = times;
      const root = document.querySelector('[data-threadwork-host="panel"]')!.shadowRoot!;
      root.addEventListener('click', () => (times.click ??= performance.now()), { capture: true });
      new MutationObserver((_, self) => {
        const shown = root.querySelector('[data-testid="threadwork-confirmation"]');
        if (shown?.textContent?.includes(title)) {
          times.done = performance.now();
          self.disconnect();
        }
      }).observe(root, { childList: true, subtree: true, characterData: true });
    }, `Bench task ${i}`);
    await page.getByTestId('threadwork-submit').click();
    await page.waitForFunction(
      () => (window as unknown as { benchTimes: { done?: number } }).benchTimes.done,
    );
    const elapsed = await page.evaluate(() => {
      const times = (window as unknown as { benchTimes: { click: number; done: number } }).benchTimes;
      return times.done - times.click;
    });
    clicks.push(elapsed);
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
} finally {
  await browser.close();
  await server.stop();
}
