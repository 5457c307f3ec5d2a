/**
 * The shipped artefact: `zapier-platform validate --without-style` finds nothing, and `zapier-platform build`
 * as Zapier's docs give it (its own dependency install in a copy of the app; `--skip-validation` only skips
 * the style check on zapier.com) makes a zip of plain JavaScript that holds no dangling link and no dev
 * dependency, and whose app loads from the zip alone (unpacked outside the workspace, so no node_modules of
 * ours can help).
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { afterAll, describe, expect, it } from 'vitest';
import { CREATE_KEYS, SEARCH_KEYS, TRIGGER_KEYS } from './helpers/keys.ts';

const APP_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(APP_ROOT, 'node_modules', '.bin', 'zapier-platform');
function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    // The build's own install may use npm's cache first (the registry is asked only for what it lacks).
    env: { ...process.env, CI: 'true', npm_config_prefer_offline: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/**
 * Unpacks a zip as Zapier does, symbolic links included: the CLI zips the links it finds under node_modules
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
  it('keeps zapier-app/.env, where `zapier-platform invoke` writes the session token, out of git', () => {
    const { status, output } = run('git', ['check-ignore', '--no-index', '.env'], APP_ROOT);
    expect(output.trim()).toBe('.env');
    expect(status).toBe(0);
  });

  it('has a changelog entry for the app’s version, the newest one (promote sends it as release notes)', () => {
    const { version } = JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const changelog = readFileSync(join(APP_ROOT, 'CHANGELOG.md'), 'utf8');
    const versions = [...changelog.matchAll(/^## (\S+)\s*$/gm)].map((match) => match[1]);
    expect(versions[0]).toBe(version);
    const entry = changelog.split(/^## /m)[1] ?? '';
    expect(entry.trim().split('\n').length, 'the entry says what changed').toBeGreaterThan(1);
  });

  it('passes zapier-platform validate --without-style', () => {
    const { status, output } = run(CLI, ['validate', '--without-style'], APP_ROOT);
    expect(output).toContain('No structural errors found');
    expect(status).toBe(0);
  });

  it('builds as Zapier documents it: plain JavaScript, no dangling link, no dev dependency, loads from the zip alone', () => {
    const { status, output } = run(CLI, ['build', '--skip-validation'], APP_ROOT);
    expect(output).toContain('Build complete');
    expect(status).toBe(0);

    const zip = new AdmZip(join(APP_ROOT, 'build', 'build.zip'));
    const names = zip.getEntries().map((entry) => entry.entryName);
    expect(names.filter((name) => /\.(c|m)?ts$/.test(name) && !name.endsWith('.d.ts'))).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'zapier-zip-'));
    unpacked.push(dir);
    unzipWithLinks(zip, dir);

    // Every link in the zip points at something the zip holds.
    const links = zip.getEntries().filter((entry) => ((entry.header.attr >>> 16) & 0o170000) === 0o120000);
    const dangling = links.map((entry) => entry.entryName).filter((name) => !existsSync(join(dir, name)));
    expect(dangling).toEqual([]);

    // No dev dependency (nor the workspace's own packages) travels in the zip: only what the app runs on.
    const manifest = JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const packagesInZip = new Set(
      names.flatMap((name) =>
        [...name.matchAll(/node_modules\/((?:@[^/]+\/)?[^/@.][^/]*)/g)].map((m) => m[1]),
      ),
    );
    const devInZip = [...Object.keys(manifest.devDependencies), '@threadwork/shared'].filter((name) =>
      packagesInZip.has(name),
    );
    expect(devInZip).toEqual([]);
    expect(packagesInZip.has('zapier-platform-core')).toBe(true);
    expect(names.filter((name) => name.includes('node_modules/.ignored/'))).toEqual([]);

    const load = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const { appRaw } = await import('./zapierwrapper.js'); console.log(JSON.stringify({ triggers: Object.keys(appRaw.triggers), creates: Object.keys(appRaw.creates), searches: Object.keys(appRaw.searches), auth: appRaw.authentication.type }));",
      ],
      dir,
    );
    expect(load.status, load.output).toBe(0);
    const loaded = JSON.parse(load.output.trim().split('\n')[0] ?? '{}');
    expect(loaded.triggers).toEqual(TRIGGER_KEYS);
    expect(loaded.auth).toBe('session');
    expect(loaded.creates).toEqual(CREATE_KEYS);
    expect(loaded.searches).toEqual(SEARCH_KEYS);
  });
});
