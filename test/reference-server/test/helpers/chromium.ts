import { existsSync } from 'node:fs';

/** The machine's Chromium (none can be downloaded): CHROMIUM_PATH, else the usual Debian paths. */
export const CHROMIUM =
  process.env['CHROMIUM_PATH'] ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) =>
    existsSync(path),
  ) ??
  '/usr/bin/chromium';

/** Browser tests run where a Chromium is installed, and always in CI (which installs it), failing there without. */
export const BROWSER_TESTS = existsSync(CHROMIUM) || Boolean(process.env['CI']);
if (!BROWSER_TESTS) {
  console.warn(
    `console browser tests skipped: no Chromium at ${CHROMIUM} (install it, or set CHROMIUM_PATH)`,
  );
}
