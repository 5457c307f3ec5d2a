import browser, { type Runtime } from 'webextension-polyfill';
import { defineBackground } from 'wxt/utils/define-background';
import { z } from 'zod';
import { createService } from '../lib/background/service.ts';

// zod must not compile validators with `new Function`: extension pages and workers forbid eval.
z.config({ jitless: true });

export default defineBackground({
  type: 'module',
  main() {
    const service = createService({
      fetch: (input, init) => fetch(input, init),
      hasHostPermission: (pattern) => browser.permissions.contains({ origins: [pattern] }),
      openTab: async (url) => {
        await browser.tabs.create({ url });
      },
      openOptions: () => browser.runtime.openOptionsPage(),
    });

    // Messages come from this extension only (content scripts and pages); the polyfill sends back the promise's value.
    browser.runtime.onMessage.addListener((message: unknown, sender: Runtime.MessageSender) => {
      if (sender.id !== browser.runtime.id) return undefined;
      return service.handle(message);
    });

    // The keyboard shortcut: tell the mailbox tab to open the panel.
    browser.commands.onCommand.addListener(async (command, tab) => {
      if (command !== 'create-task') return;
      const target = tab?.id ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.id;
      if (target !== undefined)
        await browser.tabs.sendMessage(target, { type: 'panel.open' }).catch(() => {});
    });
  },
});
