import { render } from 'preact';
import browser from 'webextension-polyfill';
import { z } from 'zod';
import { Settings } from '../../components/Settings.tsx';
import { STYLES } from '../../components/styles.ts';
import { createSend } from '../../lib/messaging.ts';
import { originPattern } from '../../lib/settings.ts';

// No `new Function` in extension pages (CSP): zod validates without compiling.
z.config({ jitless: true });

/** The service's origin is asked for at run time, on the user's click (optional_host_permissions). */
async function requestHostPermission(origin: string): Promise<boolean> {
  const origins = [originPattern(origin)];
  if (await browser.permissions.contains({ origins })) return true;
  return browser.permissions.request({ origins });
}

const style = document.createElement('style');
style.textContent = `${STYLES}\nbody { margin: 0; background: #f6f8fc; } .tw-page { max-width: 560px; margin: 32px auto; }`;
document.head.append(style);

render(
  <div class="tw-page">
    <div class="tw-panel">
      <div class="tw-head">
        <h2>Threadwork settings</h2>
      </div>
      <Settings send={createSend(browser.runtime)} requestHostPermission={requestHostPermission} />
    </div>
  </div>,
  document.getElementById('app')!,
);
