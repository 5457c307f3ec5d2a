import { defineConfig } from 'wxt';
import { CREATE_TASK_COMMAND, CREATE_TASK_SHORTCUT } from './lib/shortcut.ts';

const ICONS = Object.fromEntries([16, 32, 48, 128].map((size) => [size, `icon/${size}.png`]));

/**
 * The manifest is built per browser: Firefox gets its `browser_specific_settings` (an id is required for
 * MV3 on AMO), Chrome never sees it. Permissions stay minimal: `storage` for settings, the mailbox origin
 * for the content script; the service's origin is asked for at run time (`optional_host_permissions`).
 *
 * `--mode test` (`pnpm build:test`, and `-b firefox` for Firefox) builds an unpacked extension that already
 * holds loopback hosts, because a headless browser never answers `permissions.request()`, and whose mailbox
 * script also runs on the reference server's console mailbox pages on loopback (`/mail…`, laid out as the
 * mailbox lays out a thread), so the extension can be tried end to end without a mailbox account.
 *
 * The shortcut is one neither browser keeps for itself (Alt+Shift+T is Chrome's "focus the toolbar", so
 * Chrome left it unset); the toolbar button opens the settings (no popup); icons are `public/icon/*.png`,
 * drawn from `assets/icon.svg` by `pnpm icons`.
 */
const CONSOLE_MAILBOX_PAGES = ['http://127.0.0.1/mail*', 'http://localhost/mail*'];

export default defineConfig({
  manifestVersion: 3,
  manifest: ({ browser, mode }) => ({
    name: 'Threadwork',
    description: 'Turn the open mailbox thread into a task on your boards.',
    permissions: ['storage'],
    host_permissions: [
      'https://mail.google.com/*',
      ...(mode === 'test' ? ['http://127.0.0.1/*', 'http://localhost/*'] : []),
    ],
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    icons: ICONS,
    action: { default_title: 'Threadwork settings', default_icon: ICONS },
    // The panel's page, which the mailbox script shows in a frame: for the mailbox's origin only.
    web_accessible_resources: [{ resources: ['panel.html'], matches: ['https://mail.google.com/*'] }],
    commands: {
      [CREATE_TASK_COMMAND]: {
        suggested_key: { default: CREATE_TASK_SHORTCUT },
        description: 'Create a task from the open thread',
      },
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'extension@threadwork.dev',
              strict_min_version: '140.0',
              // What AMO asks every new extension to declare: the open thread's id and subject go to the user's service.
              data_collection_permissions: { required: ['websiteContent'] },
            },
          },
        }
      : {}),
  }),
  vite: () => ({
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  }),
  hooks: {
    'build:manifestGenerated': (wxt, manifest) => {
      if (wxt.config.mode !== 'test') return;
      for (const script of manifest.content_scripts ?? []) {
        if (script.matches?.includes('https://mail.google.com/*'))
          script.matches.push(...CONSOLE_MAILBOX_PAGES);
      }
      // The mailbox script shows the panel's page in a frame, so those pages may load it too
      // (Chrome takes only whole origins, path `/*`, in these matches).
      for (const resources of manifest.web_accessible_resources ?? []) {
        if (typeof resources !== 'string' && resources.matches?.includes('https://mail.google.com/*'))
          resources.matches.push(...CONSOLE_MAILBOX_PAGES.map((page) => `${new URL(page).origin}/*`));
      }
    },
  },
  zip: {
    artifactTemplate: 'threadwork-{{version}}-{{browser}}.zip',
    sourcesTemplate: 'threadwork-{{version}}-sources.zip',
  },
});
