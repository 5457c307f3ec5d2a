import { useState } from 'preact/hooks';
import type { Send } from '../../lib/messaging.ts';
import type { SettingsView } from '../../lib/protocol.ts';
import type { Access } from '../../lib/ui/access.ts';
import { ApiKeys } from './ApiKeys.tsx';
import { Connection } from './Connection.tsx';

export interface SettingsProps {
  send: Send;
  /** The browser's access to the service's origin (asked for on the user's click in this page). */
  access: Access;
  /** In the panel's frame (a refused request for access sends the user to the settings page), or the page itself. */
  inPanel: boolean;
  /** Opened at its "Allow access" button (the panel sent the user here). */
  focusGrant?: boolean | undefined;
  /** Told after each save (the settings page hides its first-run welcome once the extension is set up). */
  onSaved?: ((settings: SettingsView) => void) | undefined;
}

/** The settings, in the settings page and in the mailbox panel alike: connection, and the API tab. */
export function Settings(props: SettingsProps) {
  const [tab, setTab] = useState<'connection' | 'api'>('connection');
  return (
    <div class="tw-settings">
      <div class="tw-tabs" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'connection'}
          onClick={() => setTab('connection')}
        >
          Connection
        </button>
        <button type="button" role="tab" aria-selected={tab === 'api'} onClick={() => setTab('api')}>
          API keys
        </button>
      </div>
      <div role="tabpanel" aria-label={tab === 'connection' ? 'Connection' : 'API keys'}>
        {tab === 'connection' ? <Connection {...props} /> : <ApiKeys send={props.send} />}
      </div>
    </div>
  );
}
