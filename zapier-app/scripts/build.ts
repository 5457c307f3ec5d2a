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
 * ky probes at import whether `Request` takes a stream body, by building one: on Node that loads the whole
 * fetch implementation and web streams, about 60 ms of the app's load, before the app has made any request.
 * The app never sends a stream body, and Node 22 does support them, so the probe's answer is fixed to true.
 */
function kyStreamProbe(): Plugin {
  const probe = /export const supportsRequestStreams = \(\(\) => \{[\s\S]*?\n\}\)\(\);/;
  return {
    name: 'ky-stream-probe',
    transform(code, id) {
      if (!/[\\/]ky[\\/]distribution[\\/]core[\\/]constants\.js$/.test(id)) return null;
      if (!probe.test(code))
        throw new Error('ky changed its stream probe: review kyStreamProbe in scripts/build.ts');
      return code.replace(probe, 'export const supportsRequestStreams = true;');
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
  plugins: [kyStreamProbe()],
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
