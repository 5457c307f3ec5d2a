/**
 * Bundles the app with the shared package (and its zod and ky) into `dist/index.js`: plain JavaScript, ESM,
 * default export = the app definition. Zapier's build copies the app's dependencies under `node_modules`,
 * where Node does not strip types, so nothing TypeScript may reach the zip. `zapier-platform-core` stays
 * external: the platform provides it, and the zip ships it from `dependencies`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const appRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFile = join(appRoot, 'dist', 'index.js');

const bundle = await rolldown({
  input: join(appRoot, 'src', 'index.ts'),
  platform: 'node',
  external: [/^zapier-platform-core(\/|$)/, /^node:/],
  logLevel: 'warn',
});
const { output } = await bundle.generate({ format: 'esm', codeSplitting: false });
await bundle.close();
const [chunk] = output;
if (chunk === undefined || chunk.type !== 'chunk') throw new Error('rolldown produced no chunk');
mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, chunk.code);
console.log(`built ${outFile} (${(chunk.code.length / 1024).toFixed(0)} KiB)`);
