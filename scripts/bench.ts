/**
 * `pnpm bench`: runs every benchmark of the workspace (`<package>/bench/*.bench.ts`), one process each so no
 * benchmark warms or loads another, and prints their figures. A name filter narrows the run:
 * `pnpm bench parse`.
 */
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const filter = process.argv[2];
const files = globSync(['*/bench/*.bench.ts', 'test/*/bench/*.bench.ts'], { exclude: ['**/node_modules/**'] })
  .filter((file) => !filter || file.includes(filter))
  .sort();

if (files.length === 0) {
  console.error(filter ? `no benchmark matches "${filter}"` : 'no benchmarks found');
  process.exit(1);
}

let failures = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const run = spawnSync(process.execPath, [file], { stdio: 'inherit' });
  if (run.status !== 0) {
    failures++;
    console.error(`${file} exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failures ? 1 : 0);
