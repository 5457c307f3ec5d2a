// The mailbox area's layering: everything above the provider interface (compose, drafts, the area's own
// entry) works through `MailboxProvider`; only the provider factory (`providerFor` in index.ts) names the
// local provider, so a second provider plugs in at one place. The local provider is the storage of a
// simulated mailbox, so it sits below the storage line (src/storage/local-mailbox/).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcDir = join(import.meta.dirname, '..', 'src');
const localDir = join(srcDir, 'storage', 'local-mailbox');

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((match) => match[1] as string);
}

describe('the mailbox layers', () => {
  it('lets only the provider factory import the local provider', () => {
    const importers = readdirSync(srcDir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.ts') && !file.startsWith(join('storage', 'local-mailbox')))
      .filter((file) => importsOf(join(srcDir, file)).some((path) => /(^|\/)local-mailbox\//.test(path)));
    expect(importers).toEqual([join('domain', 'mailbox', 'index.ts')]);
  });

  it('keeps the local provider split by concern, no module of it over 400 lines', () => {
    for (const file of readdirSync(localDir)) {
      const lines = readFileSync(join(localDir, file), 'utf8').split('\n').length;
      expect(lines, file).toBeLessThanOrEqual(400);
    }
  });
});
