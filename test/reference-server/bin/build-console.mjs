#!/usr/bin/env node
// Builds the console's browser bundle ahead (`pnpm start` runs this before the server), so the first
// page is served at once; a server with `--console` builds it on its first console request otherwise.
import { buildConsoleBundle } from '../src/console/bundle.ts';

await buildConsoleBundle();
