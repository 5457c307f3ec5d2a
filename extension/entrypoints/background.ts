import browser, { type Runtime } from 'webextension-polyfill';
import { defineBackground } from 'wxt/utils/define-background';
import { createService } from '../lib/background/service.ts';
import { CREATE_TASK_COMMAND, SHORTCUT_SETTINGS } from '../lib/shortcut.ts';

export default defineBackground({
  type: 'module',
  main() {
    const service = createService({
      fetch: (input, init) => fetch(input, init),
      hasHostPermission: (pattern) => browser.permissions.contains({ origins: [pattern] }),
      openTab: async (url) => {
        await browser.tabs.create({ url });
      },
      openOptions: async (grant) => {
        // At its "Allow access" button: a page of its own (the settings tab may be open without it).
        if (grant) await browser.tabs.create({ url: browser.runtime.getURL('/options.html#grant') });
        else await browser.runtime.openOptionsPage();
      },
      shortcuts: {
        current: async () =>
          (await browser.commands.getAll()).find((command) => command.name === CREATE_TASK_COMMAND)?.shortcut,
        where: SHORTCUT_SETTINGS[import.meta.env.FIREFOX ? 'firefox' : 'chrome'],
        open: async () => {
          // Firefox opens its page itself; Chrome lets an extension open chrome://extensions/shortcuts.
          const commands = browser.commands as typeof browser.commands & {
            openShortcutSettings?: () => Promise<void> | void;
          };
          try {
            if (commands.openShortcutSettings !== undefined) await commands.openShortcutSettings();
            else await browser.tabs.create({ url: SHORTCUT_SETTINGS.chrome });
            return true;
          } catch {
            return false;
          }
        },
      },
    });

    // First run: the settings page, with its welcome, so the user knows what to enter and where it comes from.
    browser.runtime.onInstalled.addListener(({ reason }) => {
      if (reason === 'install') void browser.runtime.openOptionsPage();
    });
    // The toolbar button has no popup: it opens the settings.
    browser.action.onClicked.addListener(() => {
      void browser.runtime.openOptionsPage();
    });

    // Messages come from this extension only (content scripts and pages); the polyfill sends back the promise's value.
    browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
      if (sender.id !== browser.runtime.id) return undefined;
      return service.handle(message);
    });

    // The keyboard shortcut: tell the mailbox tab to open the panel.
    browser.commands.onCommand.addListener(async (command, tab) => {
      if (command !== CREATE_TASK_COMMAND) return;
      const target = tab?.id ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.id;
      if (target !== undefined)
        await browser.tabs.sendMessage(target, { type: 'panel.open' }).catch(() => {});
    });
  },
});
