/**
 * The mailbox script's life with WXT's content script context: when the extension is updated (or reloaded)
 * under an open mailbox, the new script's context ends the old one's, and with it the old watcher, its
 * listeners, its button and its frame. Run in happy-dom on a saved mailbox page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentScriptContext } from 'wxt/utils/content-script-context';
import { startMailbox } from '../components/MailboxUi.ts';

const PAGE = readFileSync(join(import.meta.dirname, 'fixtures', 'thread-open.html'), 'utf8');
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const buttons = () => document.querySelectorAll('[data-threadwork-host="button"]');
const frames = () => document.querySelectorAll('[data-threadwork-host="panel"]');

const contexts: ContentScriptContext[] = [];
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.abort();
  document.documentElement.innerHTML = '<head></head><body></body>';
});

/** What the browser does when it runs the mailbox script: a context named as the entrypoint, then main. */
function run() {
  const ctx = new ContentScriptContext('gmail');
  contexts.push(ctx);
  return { ctx, ui: startMailbox(ctx, document) };
}

describe('the mailbox script and its context', () => {
  it('ends the old script’s work when a new one starts: one button, one watcher, no old frame', async () => {
    document.documentElement.innerHTML = PAGE.replace(/^<!doctype html>/i, '');
    const old = run();
    expect(buttons()).toHaveLength(1);
    old.ui.openPanel();
    expect(frames()).toHaveLength(1);

    // The updated extension's script starts in the same page.
    run();
    expect(old.ctx.isInvalid).toBe(true);
    expect(frames()).toHaveLength(0);
    expect(buttons()).toHaveLength(1);

    // The page re-renders its toolbar: only the live watcher puts a button back, once.
    const toolbar = document.getElementById('conversation-toolbar')!;
    toolbar.innerHTML = '<div role="button" aria-label="Archive"></div>';
    await settle();
    expect(buttons()).toHaveLength(1);
  });
});
