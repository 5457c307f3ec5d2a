// The docs say what the code is (docs/architecture.md): every path named on the architecture page
// exists, each step of its two checklists names the files it changes (from the repository's root) and
// the names it says a file holds, and docs/webhooks.md lists the event types and the retry waits the
// code has. (That every event type has a webhook in the OpenAPI document is openapi.test.ts's.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_TYPES } from '@threadwork/shared/schemas';
import { describe, expect, it } from 'vitest';
import { RETRY_DELAYS_MS } from '../src/delivery/schedule.ts';

const ROOT = new URL('../../../', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** What is not the project's own: installed packages, builds, caches. */
const SKIPPED = new Set(['node_modules', '.git', '.cache', '.output', '.wxt', 'dist', '.data']);

/** Every file and folder of the project, folders with a trailing slash, from the root. */
function projectPaths(): Set<string> {
  const paths = new Set<string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = `${folder}${entry.name}`;
      if (entry.isDirectory()) {
        paths.add(`${path}/`);
        walk(`${path}/`);
      } else paths.add(path);
    }
  };
  walk('');
  return paths;
}

const PATHS = projectPaths();

/** A code span that names a file or folder: no spaces, placeholders or calls; a folder or a file type. */
function isPathLike(span: string): boolean {
  // Not a URL path (`/v2/tasks`) nor a package's name (`@threadwork/shared`).
  if (!/^[\w.@/-]+$/.test(span) || span.startsWith('/') || span.startsWith('@')) return false;
  return span.includes('/') || /\.(ts|tsx|mjs|cjs|md|json|html|css)$/.test(span);
}

/**
 * The project's paths a span may name: itself from the root, or any path ending in it (the page names
 * a file from the package or folder its sentence is about: `http/route.ts`).
 */
function pathsNamed(span: string): string[] {
  return [...PATHS].filter((path) => path === span || path.endsWith(`/${span}`));
}

/** Code spans of a text (a span may break across a line). */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.replace(/\s*\n\s*/g, ''));
}

/** The page without its fenced blocks (the page keeps its paths in code spans, where they are checked). */
const architecture = read('docs/architecture.md').replace(/^```[\s\S]*?^```$/gm, '');

/** The numbered steps of the section headed `## Checklist: <name>`, each as one text. */
function checklistSteps(name: string): string[] {
  const start = architecture.indexOf(`## Checklist: ${name}`);
  expect(start, `docs/architecture.md has a "Checklist: ${name}"`).toBeGreaterThanOrEqual(0);
  const end = architecture.indexOf('\n## ', start + 1);
  const section = architecture.slice(start, end === -1 ? undefined : end);
  return section
    .split(/\n(?=\d+\. )/)
    .slice(1)
    .map((step) => step.split(/\n\n/)[0]!);
}

describe('docs/architecture.md', () => {
  it('names only paths that exist', () => {
    const missing = codeSpans(architecture)
      .filter(isPathLike)
      .filter((span) => pathsNamed(span).length === 0);
    expect(missing).toEqual([]);
  });

  it('names each name it says a file holds ("`NAME` in `path`") where that file holds it', () => {
    const pairs = [...architecture.matchAll(/`([A-Za-z_][\w.]*)`,? in\s+`([^`]+)`/g)].map(
      (match) => [match[1]!, match[2]!] as const,
    );
    expect(pairs.length).toBeGreaterThan(10);
    const wrong = pairs.filter(
      ([name, span]) => !pathsNamed(span).some((path) => !path.endsWith('/') && read(path).includes(name)),
    );
    expect(wrong).toEqual([]);
  });

  it.each(['add an optional task field', 'add an event type'])(
    'checklist "%s": every step names the files it changes, from the root, and they exist',
    (name) => {
      const steps = checklistSteps(name);
      expect(steps.length).toBeGreaterThanOrEqual(5);
      for (const step of steps) {
        const paths = codeSpans(step).filter(isPathLike);
        expect(paths.length, `a step names no file: ${step}`).toBeGreaterThan(0);
        const fromRoot = paths.filter((path) => path.includes('/'));
        expect(fromRoot.length, `a step names no file from the root: ${step}`).toBeGreaterThan(0);
        expect(fromRoot.filter((path) => !PATHS.has(path))).toEqual([]);
      }
    },
  );
});

describe('docs/webhooks.md', () => {
  const webhooks = read('docs/webhooks.md');

  it('lists every event type of EVENT_TYPES, in its order, and no other', () => {
    const section = webhooks.slice(webhooks.indexOf('## Events (v2)'));
    const list = section.split('\n\n')[1]!;
    expect(codeSpans(list)).toEqual([...EVENT_TYPES]);
  });

  it('gives the retry waits of the delivery schedule', () => {
    const schedule = /- Schedule: [\s\S]*?(\w+) waits: ([\s\S]*?), each ±/.exec(webhooks);
    expect(schedule, 'docs/webhooks.md has a "- Schedule:" line with its waits').not.toBeNull();
    const [, count, list] = schedule!;
    const UNITS: Record<string, number> = { s: 1000, min: 60_000, h: 3_600_000 };
    const waits = list!
      .replace(/\s+/g, ' ')
      .split(/, (?![^(]*\))/)
      .map((wait) => {
        if (wait.startsWith('none')) return 0;
        const [amount, unit] = wait.split(' ');
        return Number(amount) * UNITS[unit!]!;
      });
    expect(waits).toEqual(RETRY_DELAYS_MS);
    const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    expect(WORDS.indexOf(count!)).toBe(RETRY_DELAYS_MS.length);
  });
});
