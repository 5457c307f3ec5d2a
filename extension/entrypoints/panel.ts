import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { PANEL_API } from '../components/Panel.tsx';
import { PANEL_GLOBAL } from '../lib/ui/panel-api.ts';

/**
 * The panel's own chunk, imported by the mailbox script when the panel first opens (see lib/ui/panel-api.ts).
 * It runs in the mailbox script's isolated world and leaves its API there.
 */
export default defineUnlistedScript(() => {
  (globalThis as Record<string, unknown>)[PANEL_GLOBAL] = PANEL_API;
});
