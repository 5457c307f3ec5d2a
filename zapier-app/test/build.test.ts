/**
 * The shipped artefact: `zapier-platform validate --without-style` finds nothing, and the zip of
 * `zapier-platform build --skip-validation` holds plain JavaScript whose app loads from the zip alone
 * (unpacked outside the workspace, so no node_modules of ours can help).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { afterAll, describe, expect, it } from 'vitest';
import { TRIGGER_KEYS } from './helpers/keys.ts';

const APP_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(APP_ROOT, 'node_modules', '.bin', 'zapier-platform');
function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/**
 * Unpacks a zip as Zapier does, symbolic links included: the CLI zips pnpm's node_modules with its links
 * (adm-zip alone would write each link as a file holding its target).
 */
function unzipWithLinks(zip: AdmZip, into: string): void {
  for (const entry of zip.getEntries()) {
    const target = join(into, entry.entryName);
    if (entry.isDirectory) {
      mkdirSync(target, { recursive: true });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    const mode = (entry.header.attr >>> 16) & 0o170000;
    if (mode === 0o120000) symlinkSync(entry.getData().toString('utf8'), target);
    else writeFileSync(target, entry.getData());
  }
}

const unpacked: string[] = [];
afterAll(() => {
  for (const dir of unpacked) rmSync(dir, { recursive: true, force: true });
});

describe('the built app', { timeout: 180_000 }, () => {
  it('passes zapier-platform validate --without-style', () => {
    const { status, output } = run(CLI, ['validate', '--without-style'], APP_ROOT);
    expect(output).toContain('No structural errors found');
    expect(status).toBe(0);
  });

  it('zips into plain JavaScript that loads from the zip alone', () => {
    const { status, output } = run(CLI, ['build', '--skip-validation', '--skip-dep-install'], APP_ROOT);
    expect(output).toContain('Build complete');
    expect(status).toBe(0);

    const zip = new AdmZip(join(APP_ROOT, 'build', 'build.zip'));
    const names = zip.getEntries().map((entry) => entry.entryName);
    expect(names.filter((name) => /\.(c|m)?ts$/.test(name) && !name.endsWith('.d.ts'))).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'zapier-zip-'));
    unpacked.push(dir);
    unzipWithLinks(zip, dir);

    const load = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { appRaw } = await import('./zapierwrapper.js'); console.log(JSON.stringify({ triggers: Object.keys(appRaw.triggers), creates: Object.keys(appRaw.creates).length, auth: appRaw.authentication.type }));",
      ],
      dir,
    );
    expect(load.status, load.output).toBe(0);
    const loaded = JSON.parse(load.output.trim().split('\n')[0] ?? '{}');
    expect(loaded.triggers).toEqual(TRIGGER_KEYS);
    expect(loaded.auth).toBe('session');
    expect(loaded.creates).toBeGreaterThan(0);
  });
});
