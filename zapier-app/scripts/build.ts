/**
 * Bundles the app with the shared package (and its zod and ky) into `dist/index.js`: plain JavaScript, ESM,
 * default export = the app definition. Zapier's build copies the app's dependencies under `node_modules`,
 * where Node does not strip types, so nothing TypeScript may reach the zip. `zapier-platform-core` stays
 * external: the platform provides it, and the zip ships it from `dependencies`.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, rolldown } from 'rolldown';

/**
 * ky probes its platform at import, and on Node three of the probes load what the app has not used yet: the
 * stream-body probe builds a `Request` (the whole fetch implementation and web streams, about 60 ms), and
 * reading `globalThis.FormData` / `globalThis.ReadableStream` loads them too (about 20 ms more). Every one of
 * them is true on Node 22, which the app requires, so their answers are fixed at build time. A probe that
 * changes shape fails the build rather than being skipped.
 */
function kyNodeProbes(): Plugin {
  const probes: [RegExp, string][] = [
    [
      /export const supportsRequestStreams = \(\(\) => \{[\s\S]*?\n\}\)\(\);/,
      'export const supportsRequestStreams = true;',
    ],
    [
      /export const supportsResponseStreams = typeof globalThis\.ReadableStream === 'function';/,
      'export const supportsResponseStreams = true;',
    ],
    [
      /export const supportsFormData = typeof globalThis\.FormData === 'function';/,
      'export const supportsFormData = true;',
    ],
  ];
  return {
    name: 'ky-node-probes',
    transform(code, id) {
      if (!/[\\/]ky[\\/]distribution[\\/]core[\\/]constants\.js$/.test(id)) return null;
      let patched = code;
      for (const [probe, answer] of probes) {
        if (!probe.test(patched))
          throw new Error(`ky changed a platform probe (${answer}): review kyNodeProbes in scripts/build.ts`);
        patched = patched.replace(probe, answer);
      }
      return patched;
    },
  };
}

const appRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(appRoot, 'dist', 'index.js');

const bundle = await rolldown({
  input: join(appRoot, 'src', 'index.ts'),
  platform: 'node',
  external: [/^zapier-platform-core(\/|$)/, /^node:/],
  logLevel: 'warn',
  plugins: [kyNodeProbes()],
});
const { output } = await bundle.generate({ format: 'esm', codeSplitting: false });
await bundle.close();
const [chunk] = output;
if (chunk === undefined || chunk.type !== 'chunk') throw new Error('rolldown produced no chunk');
mkdirSync(dirname(outFile), { recursive: true });
// Written aside and renamed (atomic): a build running beside a test never leaves half a file to import.
const temporary = `${outFile}.${process.pid}.tmp`;
writeFileSync(temporary, chunk.code);
renameSync(temporary, outFile);
console.log(`built ${outFile} (${(chunk.code.length / 1024).toFixed(0)} KiB)`);
