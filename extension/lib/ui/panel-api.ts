/**
 * The contract between the mailbox script (button, keyboard, placement) and the panel's own chunk (Preact,
 * the task panel, the settings), which the mailbox script imports the first time the panel opens. This keeps
 * the script that runs on every mailbox page small; the panel chunk is a web-accessible extension file.
 */
import type { Send } from '../messaging.ts';

export type PanelMode = 'task' | 'settings';

export interface PanelProps {
  thread: { id: string; subject: string } | null;
  mode: PanelMode;
  dark: boolean;
  send: Send;
  onMode: (mode: PanelMode) => void;
  onClose: () => void;
  onSubmitRef: (submit: () => void) => void;
}

export interface PanelApi {
  render(mount: HTMLElement, props: PanelProps): void;
  unmount(mount: HTMLElement): void;
}

/** Where the panel chunk leaves its API: a global of the extension's isolated world, never the page's. */
export const PANEL_GLOBAL = '__threadworkPanel';
export const PANEL_CHUNK = '/panel.js';

/** Imports the panel chunk once (again after a failure) and answers its API. */
export function panelLoader(url: string): () => Promise<PanelApi> {
  let loading: Promise<PanelApi> | undefined;
  return () => {
    loading ??= import(/* @vite-ignore */ url).then(
      () => {
        const api = (globalThis as Record<string, unknown>)[PANEL_GLOBAL] as PanelApi | undefined;
        if (api === undefined) throw new Error('the panel chunk did not register');
        return api;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
}
