/**
 * A baseline for a budget that is a ratio to an earlier version of the server: the reference server as a git
 * ref has it (`main` unless told), unpacked beside this checkout and run from its own sources, with this
 * checkout's installed dependencies. Both then run side by side in one benchmark, so machine noise hits both.
 *
 * `git archive` unpacks the ref's files into a temporary directory (no worktree, nothing written to the
 * repository); each package's `node_modules` is copied as the symlinks pnpm made, which are relative, and the
 * copy's root `node_modules/.pnpm` points at this checkout's store. So the baseline resolves `@threadwork/shared`
 * to its own `shared/` and every other package to the very files this checkout runs.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = new URL('../../../..', import.meta.url).pathname;
/** The packages the reference server runs from sources: itself and the shared package. */
const PACKAGES = ['shared', 'test/reference-server'];

export interface Baseline {
  /** The ref (a full commit id shortened) and the commit it named when unpacked. */
  ref: string;
  commit: string;
  /** The baseline's reference-server package directory (run `src/cli.ts` from there). */
  packageDir: string;
  /** Whether its lockfile differs from this checkout's (then its dependencies may not be the ones it names). */
  lockfileDiffers: boolean;
  remove(): void;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();

export function unpackBaseline(ref = process.env.BENCH_BASELINE ?? 'main'): Baseline {
  const commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), 'threadwork-baseline-'));
  const archive = execFileSync('git', ['archive', '--format=tar', commit, ...PACKAGES, 'package.json'], {
    cwd: repoRoot,
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(join(repoRoot, 'node_modules', '.pnpm'), join(dir, 'node_modules', '.pnpm'));
  for (const pkg of PACKAGES) {
    const modules = join(repoRoot, pkg, 'node_modules');
    if (existsSync(modules))
      cpSync(modules, join(dir, pkg, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  }
  let lockfileDiffers = false;
  try {
    git('diff', '--quiet', commit, '--', 'pnpm-lock.yaml');
  } catch {
    lockfileDiffers = true;
  }
  return {
    ref: /^[0-9a-f]{40}$/.test(ref) ? ref.slice(0, 7) : ref,
    commit,
    packageDir: join(dir, 'test', 'reference-server'),
    lockfileDiffers,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
