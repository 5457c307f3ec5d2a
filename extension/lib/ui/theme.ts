/**
 * Whether the mailbox shows a dark theme around `anchor`: the first opaque background up from it decides;
 * with none, light text on the page says dark; with neither, the system's preference.
 */
export function isDarkTheme(anchor: Element): boolean {
  const view = anchor.ownerDocument.defaultView;
  if (view === null) return false;
  for (let element: Element | null = anchor; element !== null; element = element.parentElement) {
    const background = parseColor(view.getComputedStyle(element).backgroundColor);
    if (background !== null && background.alpha > 0.5) return luminance(background) < 0.4;
  }
  const text = parseColor(view.getComputedStyle(anchor).color);
  if (text !== null && luminance(text) > 0.6) return true;
  return view.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
}

interface Rgba {
  red: number;
  green: number;
  blue: number;
  alpha: number;
}

function parseColor(value: string): Rgba | null {
  const match = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(
    value.trim(),
  );
  if (match === null) return null;
  const alpha =
    match[4] === undefined
      ? 1
      : match[4].endsWith('%')
        ? Number.parseFloat(match[4]) / 100
        : Number(match[4]);
  return { red: Number(match[1]), green: Number(match[2]), blue: Number(match[3]), alpha };
}

/** Relative luminance (WCAG), 0 black to 1 white. */
function luminance({ red, green, blue }: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
}
