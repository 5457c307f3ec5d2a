import { useEffect, useState } from 'preact/hooks';
import type { Send } from '../lib/messaging.ts';
import type { ResponseOf } from '../lib/protocol.ts';

type Shortcut = ResponseOf<'shortcut.get'>;

/** The panel's shortcut as the browser has it now, read once per mount: a user's own change shows. */
function useShortcut(send: Send): [Shortcut | null, () => void] {
  const [shortcut, setShortcut] = useState<Shortcut | null>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    let live = true;
    send({ type: 'shortcut.get' }).then(
      (found) => live && setShortcut(found),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [opened]);
  // After the browser's shortcut page was offered, read again when the user comes back to this page.
  const configure = () => {
    void send({ type: 'shortcut.configure' }).catch(() => {});
    addEventListener('focus', () => setOpened((value) => !value), { once: true });
  };
  return [shortcut, configure];
}

/** The unset case: where to set it, and a button to that page. */
function Unset({ shortcut, configure }: { shortcut: Shortcut; configure: () => void }) {
  return (
    <>
      No keyboard shortcut is set for Threadwork (the browser keeps the suggested one for itself). Set one at{' '}
      <code>{shortcut.where}</code>{' '}
      <button type="button" class="tw-link tw-inline" onClick={configure}>
        Set a shortcut
      </button>
    </>
  );
}

/** A small line in the task panel: which keys open it, or where to set them. */
export function ShortcutHint({ send }: { send: Send }) {
  const [shortcut, configure] = useShortcut(send);
  if (shortcut === null) return null;
  return (
    <p class="tw-hint tw-muted" data-testid="threadwork-shortcut" data-shortcut={shortcut.shortcut ?? ''}>
      {shortcut.shortcut !== null ? (
        <>
          <kbd>{shortcut.shortcut}</kbd> opens this panel.
        </>
      ) : (
        <Unset shortcut={shortcut} configure={configure} />
      )}
    </p>
  );
}

/** The settings' line about the shortcut: the current keys and where to change them. */
export function ShortcutInfo({ send }: { send: Send }) {
  const [shortcut, configure] = useShortcut(send);
  if (shortcut === null) return null;
  return (
    <p class="tw-hint" data-testid="threadwork-shortcut" data-shortcut={shortcut.shortcut ?? ''}>
      {shortcut.shortcut !== null ? (
        <>
          Keyboard shortcut: <kbd>{shortcut.shortcut}</kbd> opens the task panel on an open thread. Change it
          at <code>{shortcut.where}</code>{' '}
          <button type="button" class="tw-link tw-inline" onClick={configure}>
            Change
          </button>
        </>
      ) : (
        <Unset shortcut={shortcut} configure={configure} />
      )}
    </p>
  );
}
