import { render } from 'preact';
import type { PanelApi, PanelProps } from '../lib/ui/panel-api.ts';
import { Settings } from './Settings.tsx';
import { ShortcutHint } from './ShortcutHint.tsx';
import { STYLES } from './styles.ts';
import { TaskPanel } from './TaskPanel.tsx';

/** The panel in the mailbox: a dialog with the task panel for the open thread, or the settings. */
export function Panel({ thread, mode, dark, send, onMode, onClose, onSubmitRef }: PanelProps) {
  const shown = thread === null ? 'settings' : mode;
  const title = shown === 'task' ? 'Create task' : 'Threadwork settings';
  return (
    <div class={dark ? 'tw-dark' : undefined}>
      <div
        class="tw-panel"
        data-testid="threadwork-panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="tw-panel-title"
        // Focusable, so a click anywhere in the panel keeps the keyboard (Escape, Tab) in the panel.
        tabIndex={-1}
      >
        <div class="tw-head">
          <h2 id="tw-panel-title">{title}</h2>
          <span>
            {shown === 'task' ? (
              <button type="button" onClick={() => onMode('settings')}>
                Settings
              </button>
            ) : (
              thread !== null && (
                <button type="button" onClick={() => onMode('task')}>
                  Back
                </button>
              )
            )}
            <button type="button" title="Close (Esc)" aria-label="Close" onClick={onClose}>
              ✕
            </button>
          </span>
        </div>
        {shown === 'task' && thread !== null ? (
          <>
            <TaskPanel
              key={thread.id}
              thread={thread}
              send={send}
              onOpenSettings={() => onMode('settings')}
              onSubmitRef={onSubmitRef}
            />
            <ShortcutHint send={send} />
          </>
        ) : (
          <Settings send={send} />
        )}
      </div>
    </div>
  );
}

export const PANEL_API: PanelApi = {
  render(mount, props) {
    render(
      <>
        <style>{STYLES}</style>
        <Panel {...props} />
      </>,
      mount,
    );
  },
  unmount(mount) {
    render(null, mount);
  },
};
