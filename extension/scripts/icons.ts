/**
 * Draws the extension's PNG icons (16, 32, 48, 128 px) from `assets/icon.svg` with the machine's Chromium,
 * into `public/icon/<size>.png`, where WXT and the manifest take them. Run after changing the SVG:
 * `pnpm --filter @threadwork/extension icons`; the PNGs are committed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, EXTENSION_ROOT } from '../test/helpers/browser.ts';

const svg = readFileSync(join(EXTENSION_ROOT, 'assets/icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
try {
  for (const size of [16, 32, 48, 128]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img width="${size}" height="${size}" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body></html>`,
    );
    await page.locator('img').screenshot({
      path: join(EXTENSION_ROOT, `public/icon/${size}.png`),
      omitBackground: true,
    });
    await page.close();
  }
} finally {
  await browser.close();
}
