#!/usr/bin/env node
// The server's start command (`pnpm run server`, `pnpm start`). It runs the CLI from a single-file bundle
// of the TypeScript sources: loading ~700 modules one by one (and stripping types from ours) costs more
// than half a second, a bundle a fraction of that. The bundle is CommonJS because an ES module importing
// `node:http` makes Node load its fetch implementation (~80 ms) to list that module's exports. It is rebuilt
// whenever a source file, the lockfile or this launcher changes, so it is never stale; if it cannot be
// built, the sources run as they are.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

module.enableCompileCache?.();

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(packageDir, '..', '..');
const entry = join(packageDir, 'src', 'cli.ts');
const cacheDir = join(packageDir, '.cache');
const bundleFile = join(cacheDir, 'cli.cjs');
const stampFile = join(cacheDir, 'cli.stamp');

/** Every input of the bundle, by path, size and modification time. */
function fingerprint() {
  const hash = createHash('sha256');
  const add = (path) => {
    try {
      const stat = statSync(path);
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    } catch {
      hash.update(`${path}\0missing\n`);
    }
  };
  for (const dir of [join(packageDir, 'src'), join(repoRoot, 'shared', 'src')]) {
    for (const name of readdirSync(dir, { recursive: true }).sort()) add(join(dir, String(name)));
  }
  add(join(repoRoot, 'pnpm-lock.yaml'));
  add(fileURLToPath(import.meta.url));
  return hash.digest('hex');
}

async function build(stamp) {
  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: entry,
    platform: 'node',
    // A native addon, the PostgreSQL driver (its optional native half must not be resolved at build
    // time; a server on SQLite never loads it) and rolldown (native too; only the console's first
    // request may load it, to build the browser bundle): all load from node_modules at run time.
    external: ['better-sqlite3', 'pg', 'rolldown'],
    logLevel: 'silent',
  });
  const temporary = `${bundleFile}.${process.pid}.tmp`;
  const { output } = await bundle.generate({ format: 'cjs', codeSplitting: false });
  await bundle.close();
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(temporary, output[0].code);
  // Renames are atomic: servers starting in parallel never read a half-written bundle.
  renameSync(temporary, bundleFile);
  writeFileSync(`${stampFile}.${process.pid}.tmp`, stamp);
  renameSync(`${stampFile}.${process.pid}.tmp`, stampFile);
}

async function bundledEntry() {
  const stamp = fingerprint();
  let current = '';
  try {
    current = readFileSync(stampFile, 'utf8');
  } catch {}
  if (current !== stamp) await build(stamp);
  return bundleFile;
}

let bundle;
try {
  bundle = await bundledEntry();
} catch (error) {
  process.stderr.write(`threadwork server: running from sources (no bundle: ${error.message})\n`);
}
if (bundle) createRequire(import.meta.url)(bundle);
else await import(pathToFileURL(entry).href);
