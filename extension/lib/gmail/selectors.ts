/**
 * Every selector and attribute the extension relies on in the mailbox page, in one table, each with its
 * fallbacks (first match wins). Gmail's class names change; its `gh`, `role` and `data-*` attributes have been
 * stable for years, so those come first. When the mailbox changes its page, this is the one file to update,
 * and the saved pages in `test/fixtures/` show what each entry is matched against.
 */
export const SELECTORS = {
  /** The open conversation's subject heading, which names the thread. */
  subjectHeading: ['h2[data-legacy-thread-id]', 'h2[data-thread-perm-id]', 'h2.hP'],
  /** The main toolbar of a view (archive, spam, delete, labels, …), inside its `[gh=tm]` container. */
  toolbar: ['[gh="tm"] [gh="mtb"]', '[gh="mtb"]'],
  /** The thread list: a toolbar whose view contains it belongs to the list, not to the conversation. */
  threadList: ['[gh="tl"]', 'table.F.cf.zt'],
  /** Places a `[gh=mtb]` must never be taken from: a list row, a message, a row's hover toolbar. */
  notConversationToolbar: ['tr', '[role="listitem"]', '.adn', '[role="row"]'],
  /** One message of the conversation (collapsed ones have no body on screen). */
  message: ['[role="listitem"].adn', '.adn'],
  /** A message's body as shown. */
  messageBody: ['.a3s'],
  /** A message's sender: Gmail's sender name carries the address in `email` and the name in `name`. */
  sender: ['.gD[email]', 'span[email]'],
} as const;

/** Thread id attributes on the heading, in order of preference. */
export const THREAD_ID_ATTRIBUTES = ['data-legacy-thread-id', 'data-thread-perm-id'] as const;

/**
 * The attributes whose change may open, close or re-render a conversation: what the page watcher listens to
 * (visibility switches and the thread ids above).
 */
export const WATCHED_ATTRIBUTES = ['style', 'class', 'hidden', ...THREAD_ID_ATTRIBUTES] as const;

/** The view that holds a conversation (Gmail keeps one per visited thread, hidden when not shown). */
export const VIEW = '[role="main"]';

export function queryFirst(root: ParentNode, selectors: readonly string[]): Element | null {
  for (const selector of selectors) {
    const found = root.querySelector(selector);
    if (found !== null) return found;
  }
  return null;
}

export function queryAll(root: ParentNode, selectors: readonly string[]): Element[] {
  for (const selector of selectors) {
    const found = root.querySelectorAll(selector);
    if (found.length > 0) return Array.from(found);
  }
  return [];
}
