import { afterEach, describe, expect, it } from 'vitest';
import { isDarkTheme } from '../lib/ui/theme.ts';

afterEach(() => {
  document.body.innerHTML = '';
  document.body.removeAttribute('style');
});

function toolbarIn(style: string): Element {
  document.body.innerHTML = `<div id="view" style="${style}"><div gh="mtb"></div></div>`;
  return document.querySelector('[gh="mtb"]')!;
}

describe("the mailbox's theme", () => {
  it('is what the first opaque background around the toolbar says', () => {
    expect(isDarkTheme(toolbarIn('background-color: rgb(31, 31, 31)'))).toBe(true);
    expect(isDarkTheme(toolbarIn('background-color: #ffffff'))).toBe(false);
    // A nearly transparent layer does not decide; the page below it does.
    document.body.setAttribute('style', 'background-color: rgb(32, 33, 36)');
    expect(isDarkTheme(toolbarIn('background-color: rgba(255, 255, 255, 0.1)'))).toBe(true);
  });

  it('without any background, light text means a dark theme', () => {
    expect(isDarkTheme(toolbarIn('color: rgb(227, 227, 227)'))).toBe(true);
    expect(isDarkTheme(toolbarIn('color: rgb(31, 31, 31)'))).toBe(false);
  });
});
