// The console's browser bundle: the Preact app in `console/` (beside `src/`), built by rolldown into
// `.cache/console/` with a content hash in its name, so it is served with an immutable cache header.
// Built ahead by `pnpm start` (bin/build-console.mjs runs `buildConsoleBundle`), else on the first
// console request; rebuilt whenever an input changed (same fingerprint rule as the server's own bundle:
// path, size and modification time of every source of the app and of the shared package, and the
// lockfile). Nothing here is loaded until then: rolldown is imported only to build.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ConsoleAssets {
  /** The script's file name, e.g. `console.3f2a….js`. */
  script: string;
  /** The stylesheet, inlined into every page (no second request before the first paint). */
  css: string;
  /** Served files by name. */
  files: ReadonlyMap<string, Buffer>;
}

/** The reference server's package directory, from wherever this code runs (sources or the server's bundle). */
export function packageDirectory(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && readFileSync(manifest, 'utf8').includes('"@threadwork/reference-server"')) {
      return dir;
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the reference server package directory');
}

function paths(packageDir: string) {
  const repoRoot = join(packageDir, '..', '..');
  return {
    appDir: join(packageDir, 'console'),
    sharedDir: join(repoRoot, 'shared', 'src'),
    lockfile: join(repoRoot, 'pnpm-lock.yaml'),
    outDir: join(packageDir, '.cache', 'console'),
  };
}

function fingerprint(packageDir: string): string {
  const { appDir, sharedDir, lockfile } = paths(packageDir);
  const hash = createHash('sha256');
  const add = (path: string) => {
    try {
      const stat = statSync(path);
      hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
    } catch {
      hash.update(`${path}\0missing\n`);
    }
  };
  for (const dir of [appDir, sharedDir]) {
    for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) add(join(dir, name));
  }
  add(lockfile);
  add(fileURLToPath(import.meta.url));
  return hash.digest('hex');
}

interface Manifest {
  stamp: string;
  script: string;
}

function readManifest(outDir: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** Builds the bundle when it is missing or stale; answers the manifest of the current one. */
export async function buildConsoleBundle(packageDir = packageDirectory()): Promise<Manifest> {
  const { appDir, outDir } = paths(packageDir);
  const stamp = fingerprint(packageDir);
  const current = readManifest(outDir);
  if (current?.stamp === stamp && existsSync(join(outDir, current.script))) return current;

  const { rolldown } = await import('rolldown');
  const bundle = await rolldown({
    input: join(appDir, 'main.tsx'),
    platform: 'browser',
    transform: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    logLevel: 'silent',
  });
  const { output } = await bundle.generate({ format: 'esm', minify: true, codeSplitting: false });
  await bundle.close();
  const code = output[0].code;
  const script = `console.${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`;
  mkdirSync(outDir, { recursive: true });
  // Renames are atomic: servers building in parallel never serve a half-written file.
  const write = (name: string, text: string) => {
    const temporary = join(outDir, `${name}.${process.pid}.tmp`);
    writeFileSync(temporary, text);
    renameSync(temporary, join(outDir, name));
  };
  write(script, code);
  const manifest: Manifest = { stamp, script };
  write('manifest.json', JSON.stringify(manifest));
  return manifest;
}

let loading: Promise<ConsoleAssets> | undefined;

/** The current bundle, built if needed, read once per process. */
export function consoleAssets(): Promise<ConsoleAssets> {
  loading ??= (async () => {
    const packageDir = packageDirectory();
    const { appDir, outDir } = paths(packageDir);
    const manifest = await buildConsoleBundle(packageDir);
    return {
      script: manifest.script,
      css: readFileSync(join(appDir, 'styles.css'), 'utf8'),
      files: new Map([[manifest.script, readFileSync(join(outDir, manifest.script))]]),
    };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
