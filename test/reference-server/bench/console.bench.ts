/**
 * The console's budgets (docs/console.md), each against a baseline measured in the same run:
 * - server start-up with `--console` against the same start without it (spawn to `ready`, median ratio;
 *   budget: unchanged, ≤ 1.05×);
 * - the demo workspace's board page on a warm server: navigation to the first card painted (budget
 *   ≤ 300 ms), with the browser's first contentful paint and a blank page's load beside it;
 * - a board of 5,000 tasks: navigation to the first card painted (budget ≤ 1 s), and scrolling: a list
 *   scrolled to its end and its next page shown.
 * Chromium is the machine's, found as the extension's browser tests find it; without one the browser
 * figures are skipped with a note.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../../../extension/test/helpers/browser.ts';
import { report, summarise } from '../../../scripts/bench-kit.ts';
import { startProcess } from './peers/processes.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const packageDir = new URL('..', import.meta.url).pathname;
const median = (values: number[]) => summarise(values).median;

async function spawnToReady(args: string[]) {
  return startProcess(process.execPath, ['bin/server.mjs', ...args], {
    cwd: packageDir,
    ready: /^ready (\S+)$/m,
  });
}

// Start-up, interleaved so that machine noise hits both alike. The console's bundle is built ahead, as
// `pnpm start` does, so neither variant pays for a build.
await import('../src/console/bundle.ts').then(({ buildConsoleBundle }) => buildConsoleBundle());
const base = ['--db', ':memory:', '--port', '0', '--demo'];
const startup = { without: [] as number[], with: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  const variants: ['without' | 'with', string[]][] = [
    ['without', base],
    ['with', [...base, '--console']],
  ];
  for (const [variant, args] of variants) {
    const server = await spawnToReady(args);
    startup[variant].push(server.startupMs);
    await server.stop();
  }
}
report({
  name: 'start-up with --console / without (--demo, spawn to ready, median ratio)',
  value: median(startup.with) / median(startup.without),
  unit: '×',
  budget: { limit: 1.05, better: 'lower' },
  context: { 'with --console ms': median(startup.with), 'without ms': median(startup.without) },
});

/** A board of `lists` × `perList` tasks, in a seed of its own. */
function bigBoardSeed(lists: number, perList: number) {
  const listIds = Array.from({ length: lists }, (_, index) => `lst_big_${index}`);
  return {
    users: [{ id: 'usr_ada', email: 'ada@example.com', display_name: 'Ada Lovelace' }],
    teams: [
      { id: 'team_big', name: 'Big', members: ['usr_ada'], subscription: { plan: 'pro', status: 'active' } },
    ],
    boards: [
      {
        id: 'brd_big',
        team_id: 'team_big',
        owner_id: null,
        name: 'Five thousand',
        board_type: 'shared',
        template: null,
        lists: listIds.map((id, index) => ({ id, name: `List ${index + 1}` })),
        custom_fields: [],
      },
    ],
    tasks: listIds.flatMap((listId, list) =>
      Array.from({ length: perList }, (_, index) => ({
        id: `tsk_big_${list}_${index}`,
        list_id: listId,
        title: `Task ${index + 1} of list ${list + 1}`,
        assignee_id: index % 3 === 0 ? 'usr_ada' : null,
      })),
    ),
  };
}

// What runs in the page (as source text: this file is type-checked without the DOM's types).
/** Resolves, in the page, with the time of the first card painted (the frame after it is in) and the FCP. */
const FIRST_CARD_PAINTED = `new Promise((resolve) => {
  const done = () => requestAnimationFrame(() => setTimeout(() => resolve({
    card: performance.now(),
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  })));
  if (document.querySelector('[data-testid="console-task"]')) return done();
  new MutationObserver((_, observer) => {
    if (!document.querySelector('[data-testid="console-task"]')) return;
    observer.disconnect();
    done();
  }).observe(document, { childList: true, subtree: true });
})`;

/**
 * Resolves, in the page, with the milliseconds from a click on the first list's "Show more tasks" (after
 * scrolling the list to its end) to the frame after its next cards are in.
 */
const NEXT_PAGE_SHOWN = `new Promise((resolve) => {
  const list = document.querySelector('[data-testid="console-list"]');
  const cards = list.querySelector('.cards');
  cards.scrollTo(0, cards.scrollHeight);
  const before = list.querySelectorAll('[data-testid="console-task"]').length;
  const started = performance.now();
  new MutationObserver((_, observer) => {
    if (list.querySelectorAll('[data-testid="console-task"]').length <= before) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - started)));
  }).observe(list, { childList: true, subtree: true });
  list.querySelector('button.more').click();
})`;

/** Milliseconds from navigation start to the first card painted, and the first contentful paint. */
async function boardPaint(page: Page, url: string): Promise<{ card: number; fcp: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  return (await page.evaluate(FIRST_CARD_PAINTED)) as { card: number; fcp: number };
}

if (!existsSync(CHROMIUM)) {
  console.log(`console page budgets skipped: no Chromium at ${CHROMIUM} (set CHROMIUM_PATH)`);
} else {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    // The demo workspace, on a warm server (the page and the bundle served once before measuring).
    const demo = await spawnToReady([...base, '--console']);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const blank: number[] = [];
    const demoCard: number[] = [];
    const demoFcp: number[] = [];
    await boardPaint(page, `${demo.origin}/boards/brd_product`);
    for (let run = 0; run < RUNS; run++) {
      await page.goto(`${demo.origin}/v2/teams`, { waitUntil: 'load' });
      blank.push((await page.evaluate('performance.now()')) as number);
      const figures = await boardPaint(page, `${demo.origin}/boards/brd_product`);
      demoCard.push(figures.card);
      demoFcp.push(figures.fcp);
    }
    await demo.stop();
    report({
      name: 'demo board page, navigation to first card painted (warm server, median)',
      value: median(demoCard),
      unit: 'ms',
      budget: { limit: 300, better: 'lower' },
      context: {
        'first contentful paint': median(demoFcp),
        'a small JSON answer loaded (baseline)': median(blank),
      },
    });

    // A board of 5,000 tasks: 5 lists of 1,000.
    const work = mkdtempSync(join(tmpdir(), 'threadwork-console-bench-'));
    const seedFile = join(work, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(bigBoardSeed(5, 1000)));
    const big = await spawnToReady(['--db', ':memory:', '--port', '0', '--seed', seedFile, '--console']);
    const bigCard: number[] = [];
    const more: number[] = [];
    await boardPaint(page, `${big.origin}/boards/brd_big`);
    for (let run = 0; run < RUNS; run++) {
      bigCard.push((await boardPaint(page, `${big.origin}/boards/brd_big`)).card);
      // Scrolling: the first list to its end, then its next page of cards shown.
      more.push((await page.evaluate(NEXT_PAGE_SHOWN)) as number);
    }
    await big.stop();
    rmSync(work, { recursive: true, force: true });
    report({
      name: '5,000-task board, navigation to first card painted (median)',
      value: median(bigCard),
      unit: 'ms',
      budget: { limit: 1000, better: 'lower' },
      context: {
        'demo board (same run)': median(demoCard),
        'next page of a list after scrolling': median(more),
      },
    });
  } finally {
    await browser.close();
  }
}
