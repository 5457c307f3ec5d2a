/**
 * What crosses between the mailbox page and the panel's frame (an extension page, `panel.html`, in an iframe
 * the mailbox script places). The frame holds everything secret (the settings form, a new key's secret) and
 * talks to the background itself; the mailbox page can read none of it. Into the frame goes only thread
 * metadata (id, subject, sender, the open message's first characters, the thread's address) and how to show
 * it (task or settings, dark or light); out of it only what the page must do with the frame (its height,
 * close). Both directions use `postMessage`, which scripts of the mailbox page could also send or read: so
 * nothing secret ever crosses, and the frame takes what comes in as what it is, text from the page (the same
 * page the mailbox script reads the thread from).
 *
 * No dependencies: the mailbox script imports this module and must stay small.
 */

/** The frame's page, as `runtime.getURL` and the manifest's `web_accessible_resources` name it. */
export const PANEL_PAGE = '/panel.html';

/** The user timing mark the panel's frame sets when its form first shows (what the bench times an open by). */
export const FORM_SHOWN = 'threadwork:form-shown';

/** How many characters of the open message cross into the frame (the notes' prefill). */
export const MESSAGE_TEXT_LIMIT = 2000;

export type PanelMode = 'task' | 'settings';

/** The open thread, as the frame gets it. */
export interface ThreadMeta {
  /** The raw mailbox thread id (hex). */
  id: string;
  subject: string;
  /** The address that opens this thread in the mailbox (the notes link back to it). */
  url: string;
  /** The open message's sender and first characters; null when no message body is on screen. */
  message: { sender: string | null; text: string } | null;
}

/** Into the frame: show the panel (again), for this thread or none, in this mode and theme. */
export interface ShowMessage {
  threadwork: 'show';
  /** Null keeps the mode the panel is in (the user may have switched it inside the frame). */
  mode: PanelMode | null;
  thread: ThreadMeta | null;
  dark: boolean;
  /** Whether the frame should take the keyboard (the panel was just opened). */
  focus: boolean;
}

/** Out of the frame. */
export type FrameMessage =
  /** Loaded and listening. */
  | { threadwork: 'ready' }
  /** The panel's height in CSS pixels, after each change. */
  | { threadwork: 'size'; height: number }
  /** Escape, or the close button: the page hides the frame and gives the keyboard back to the button. */
  | { threadwork: 'close' };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** A message from the frame, or null for anything else the page's window receives. */
export function frameMessage(data: unknown): FrameMessage | null {
  if (!isRecord(data)) return null;
  if (data['threadwork'] === 'ready' || data['threadwork'] === 'close') return data as FrameMessage;
  if (data['threadwork'] === 'size' && typeof data['height'] === 'number' && data['height'] >= 0)
    return { threadwork: 'size', height: data['height'] };
  return null;
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** A show message into the frame, checked field by field; null for anything else. */
export function showMessage(data: unknown): ShowMessage | null {
  if (!isRecord(data) || data['threadwork'] !== 'show') return null;
  const { mode, thread, dark, focus } = data;
  if (
    (mode !== 'task' && mode !== 'settings' && mode !== null) ||
    typeof dark !== 'boolean' ||
    typeof focus !== 'boolean'
  )
    return null;
  if (thread === null) return { threadwork: 'show', mode, thread: null, dark, focus };
  if (!isRecord(thread) || !isString(thread['id']) || !/^[0-9a-f]{6,32}$/.test(thread['id'])) return null;
  if (!isString(thread['subject']) || !isString(thread['url'])) return null;
  // The notes link back to the thread: a web address, never any other scheme.
  const url = /^https?:\/\//.test(thread['url']) ? thread['url'] : '';
  const message = thread['message'];
  const readMessage =
    isRecord(message) && isString(message['text'])
      ? {
          sender: isString(message['sender']) ? message['sender'] : null,
          text: message['text'].slice(0, MESSAGE_TEXT_LIMIT),
        }
      : null;
  return {
    threadwork: 'show',
    mode,
    dark,
    focus,
    thread: { id: thread['id'], subject: thread['subject'], url, message: readMessage },
  };
}
