// A migration is history: once it has run somewhere, what it did must not change. So it imports no
// live code of the server or of the shared package (a rule or a list of values there may change), only
// Kysely, its siblings in migrations/, and the row types of db/schema.ts (types leave no code behind).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const folder = join(import.meta.dirname, '../src/db/migrations');

/** Every import of a file: its specifier, and whether it brings types only. */
function importsOf(source: string): { from: string; typeOnly: boolean }[] {
  return [...source.matchAll(/^import\s+(type\s+)?([\s\S]*?)\s+from\s+'([^']+)';/gm)].map((match) => {
    const names = match[2]!.trim();
    const allTypes =
      /^\{[\s\S]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
        .every((name) => name.startsWith('type '));
    return { from: match[3]!, typeOnly: Boolean(match[1]) || allTypes };
  });
}

describe('migrations are frozen code', () => {
  const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));

  it.each(files)('%s imports only Kysely, its siblings and row types', (file) => {
    const imports = importsOf(readFileSync(join(folder, file), 'utf8'));
    const live = imports.filter(
      ({ from, typeOnly }) =>
        !(from === 'kysely' || from === 'kysely/migration' || /^\.\/[^/]+\.ts$/.test(from) || typeOnly),
    );
    expect(live).toEqual([]);
  });

  it('reads imports as they are written', () => {
    expect(importsOf("import { latestTime } from '../../domain/mailbox/threads.ts';")).toEqual([
      { from: '../../domain/mailbox/threads.ts', typeOnly: false },
    ]);
    expect(importsOf("import type { Database } from '../schema.ts';")[0]?.typeOnly).toBe(true);
  });
});
