/**
 * Finds the open conversation in the mailbox page: plain functions over a `Document`, tested against saved
 * mailbox pages (test/fixtures). Gmail keeps earlier views hidden in the page, so every step takes the
 * visible element, never the first one.
 */
import { cut } from '../text.ts';
import { queryAll, queryFirst, SELECTORS, THREAD_ID_ATTRIBUTES, VIEW } from './selectors.ts';

export interface OpenThread {
  /** The raw mailbox thread id (hex), as the service takes it. */
  id: string;
  /** The subject as the user reads it: emoji images as their characters, whitespace collapsed. */
  subject: string;
  heading: Element;
  /** The conversation's own toolbar, or null when it has none (then the button floats). */
  toolbar: Element | null;
}

/** Whether an element is rendered: neither it nor an ancestor is `hidden`, `display: none` or `visibility: hidden`. */
export function isVisible(element: Element): boolean {
  const view = element.ownerDocument.defaultView;
  for (let node: Element | null = element; node !== null; node = node.parentElement) {
    if (node.hasAttribute('hidden')) return false;
    const style = view?.getComputedStyle(node);
    if (style !== undefined && (style.display === 'none' || style.visibility === 'hidden')) return false;
  }
  return true;
}

/**
 * The hex thread id from a heading: `data-legacy-thread-id` as is, or the decimal number of
 * `data-thread-perm-id` ("thread-f:1788…") turned into hex. Undefined when neither is usable.
 */
export function threadIdOf(heading: Element): string | undefined {
  for (const attribute of THREAD_ID_ATTRIBUTES) {
    const raw = heading.getAttribute(attribute)?.trim();
    if (raw === undefined || raw === '') continue;
    if (/^[0-9a-f]{6,32}$/i.test(raw)) return raw.toLowerCase();
    const decimal = /^thread-[a-z]:(\d{1,40})$/.exec(raw)?.[1];
    if (decimal !== undefined) return BigInt(decimal).toString(16);
  }
  return undefined;
}

/** A node's text as displayed: emoji images (`<img alt="🎉">`) read as their alt text, whitespace collapsed. */
export function readableText(node: Node): string {
  const parts: string[] = [];
  const walk = (current: Node) => {
    if (current.nodeType === 3) {
      parts.push(current.nodeValue ?? '');
      return;
    }
    if (current.nodeType !== 1) return;
    const element = current as Element;
    if (element.tagName === 'IMG') {
      parts.push(element.getAttribute('data-emoji') ?? element.getAttribute('alt') ?? '');
      return;
    }
    if (element.tagName === 'SCRIPT' || element.tagName === 'STYLE') return;
    for (const child of Array.from(element.childNodes)) walk(child);
  };
  walk(node);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

/** The visible subject heading that names a thread, or null when no conversation is open. */
export function findOpenHeading(document: Document): Element | null {
  // Each selector of the table in turn: a better one that matches only hidden views gives way to the next.
  for (const selector of SELECTORS.subjectHeading) {
    for (const heading of Array.from(document.querySelectorAll(selector))) {
      if (isVisible(heading) && threadIdOf(heading) !== undefined) return heading;
    }
  }
  return null;
}

/**
 * The toolbar of the conversation that holds `heading`: the visible `[gh=mtb]` nearest to the heading, going
 * up from it. Gmail puts each view's toolbar in a `[gh=tm]` container beside the conversation, inside the
 * view (`[role=main]`) or, in older layouts, one level above it; the toolbars of hidden views are hidden with
 * them. The search stops at a scope that holds a visible thread list (in a split pane the toolbar there is
 * the list's, not the conversation's), and never takes a `[gh=mtb]` inside a list row or a message.
 */
export function findConversationToolbar(heading: Element): Element | null {
  for (let scope = heading.parentElement; scope !== null; scope = scope.parentElement) {
    if (queryAll(scope, SELECTORS.threadList).some(isVisible)) return null;
    for (const selector of SELECTORS.toolbar) {
      const toolbar = Array.from(scope.querySelectorAll(selector)).find(
        (candidate) =>
          isVisible(candidate) &&
          !SELECTORS.notConversationToolbar.some((place) => candidate.parentElement?.closest(place)),
      );
      if (toolbar !== undefined) return toolbar;
    }
  }
  return null;
}

/** The open conversation, or null when the mailbox shows a list (or nothing). */
export function detectOpenThread(document: Document): OpenThread | null {
  const heading = findOpenHeading(document);
  if (heading === null) return null;
  const id = threadIdOf(heading);
  if (id === undefined) return null;
  return { id, subject: readableText(heading), heading, toolbar: findConversationToolbar(heading) };
}

/** The open message as the user sees it: who sent it and its text, lines kept. */
export interface OpenMessage {
  /** "Name <address>", or whichever of the two the page shows; null when it shows neither. */
  sender: string | null;
  text: string;
}

/**
 * The last message of the conversation whose body is on screen (the one the user has open), read as text,
 * cut to `limit` characters. Null when no message body is shown.
 */
export function readOpenMessage(heading: Element, limit: number): OpenMessage | null {
  for (let scope = heading.parentElement; scope !== null; scope = scope.parentElement) {
    const shown = queryAll(scope, SELECTORS.message).filter(
      (message) => isVisible(message) && queryAll(message, SELECTORS.messageBody).some(isVisible),
    );
    const message = shown.at(-1);
    if (message !== undefined) {
      const body = queryAll(message, SELECTORS.messageBody).filter(isVisible).at(-1)!;
      return { sender: senderOf(message), text: cut(shownText(body), limit) };
    }
    if (scope.matches(VIEW)) return null;
  }
  return null;
}

function senderOf(message: Element): string | null {
  const sender = queryFirst(message, SELECTORS.sender);
  const name = sender?.getAttribute('name')?.trim() || sender?.textContent?.trim() || '';
  const address = sender?.getAttribute('email')?.trim() ?? '';
  if (name !== '' && address !== '' && name !== address) return `${name} <${address}>`;
  return name || address || null;
}

/** Text as rendered (line breaks kept, hidden parts left out where the browser lays the page out), tidied. */
function shownText(element: Element): string {
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown is wanted (hidden quoted parts left out, lines kept).
  const text = (element as HTMLElement).innerText ?? element.textContent ?? '';
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
