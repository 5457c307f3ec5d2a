import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { Settings } from '../../components/settings/Settings.tsx';
import { STYLES } from '../../components/styles.ts';
import { Welcome } from '../../components/Welcome.tsx';
import { createSend } from '../../lib/messaging.ts';
import { browserAccess } from '../../lib/ui/access.ts';

/** `#grant`: the panel sent the user here because the browser would not ask for access from the panel. */
const GRANT = location.hash === '#grant';

const send = createSend(browser.runtime);

/** The page around the settings card; the colours, light and dark (`tw-dark` on the body), are the shared STYLES. */
const PAGE_STYLES = `
body { margin: 0; background: var(--tw-page); }
.tw-page { display: block; max-width: 600px; margin: 32px auto; padding: 0 12px; }
.tw-page .tw-welcome { margin-bottom: 16px; }
`;

/** The page follows the system's light or dark theme, live. */
function useDark(): boolean {
  const query = matchMedia('(prefers-color-scheme: dark)');
  const [dark, setDark] = useState(query.matches);
  useEffect(() => {
    const follow = () => setDark(query.matches);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, []);
  return dark;
}

function OptionsPage() {
  const dark = useDark();
  // The welcome shows until the extension is set up (first run, or after it signed out).
  const [welcome, setWelcome] = useState(false);
  useEffect(() => {
    send({ type: 'settings.get' }).then(
      ({ settings }) => setWelcome(!settings.configured),
      () => setWelcome(true),
    );
  }, []);
  useEffect(() => {
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    document.body.classList.toggle('tw-dark', dark);
  }, [dark]);
  return (
    <main class="tw-page">
      {welcome && <Welcome />}
      <div class="tw-panel">
        <div class="tw-head">
          <h1>Threadwork settings</h1>
        </div>
        <Settings
          send={send}
          access={browserAccess}
          inPanel={false}
          focusGrant={GRANT}
          onSaved={(settings) => setWelcome(!settings.configured)}
        />
      </div>
    </main>
  );
}

const style = document.createElement('style');
style.textContent = `${STYLES}\n${PAGE_STYLES}`;
document.head.append(style);

render(<OptionsPage />, document.getElementById('app')!);
