/**
 * `@threadwork/shared/light` is what code that must start fast imports at load (the Zapier app): it must
 * load neither zod nor ky, and offer the same values and classes as the package's main entry.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as main from '../src/index.ts';
import * as light from '../src/light.ts';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** The packages a fresh process resolves while importing `file` (bare specifiers only). */
function packagesLoadedBy(file: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const packages = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        if (!/^(node:|[./]|file:)/.test(specifier)) packages.add(specifier);
        return next(specifier, context);
      },
    });
    await import(${JSON.stringify(pathToFileURL(file).href)});
    process.stdout.write(JSON.stringify([...packages]));
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as string[];
}

describe('@threadwork/shared/light', () => {
  it('loads neither zod nor ky, where the main entry loads both', () => {
    expect(packagesLoadedBy(join(SRC, 'light.ts'))).toEqual([]);
    expect(packagesLoadedBy(join(SRC, 'index.ts'))).toEqual(expect.arrayContaining(['zod', 'ky']));
  });

  it('offers the very values and classes the main entry exports', () => {
    const mainExports = new Map(Object.entries(main));
    for (const [name, value] of Object.entries(light)) {
      if (mainExports.has(name)) expect(mainExports.get(name), name).toBe(value);
    }
    expect(light.NotFoundError).toBe(main.NotFoundError);
    expect(light.SHADES).toBe(main.SHADES);
    expect(light.V1_ACTION_TARGETS).toBe(main.V1_ACTION_TARGETS);
    expect(light.TOKEN_REFRESH_MARGIN_MS).toBe(main.TOKEN_REFRESH_MARGIN_MS);
  });
});
