import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectOpenThread, readableText, readOpenMessage, threadIdOf } from '../lib/gmail/thread.ts';
import { watchOpenThread } from '../lib/gmail/watch.ts';

function load(name: string): Document {
  const html = readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
  document.documentElement.innerHTML = html.replace(/^<!doctype html>/i, '');
  return document;
}

/** Lets the MutationObserver deliver (happy-dom delivers after a task, a browser after a microtask). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.documentElement.innerHTML = '<head></head><body></body>';
});

describe('the open thread on saved mailbox pages', () => {
  it('takes the visible heading, not the hidden earlier views, and the conversation toolbar', () => {
    const thread = detectOpenThread(load('thread-open.html'));
    expect(thread?.id).toBe('18c2f0a1b2c3d4e5');
    expect(thread?.subject).toBe('Quote for the roof 🏠');
    expect(thread?.toolbar?.id).toBe('conversation-toolbar');
  });

  it('finds no thread in the list view, though a hidden view holds one', () => {
    expect(detectOpenThread(load('list-view.html'))).toBeNull();
  });

  it('in a split pane, takes the reading pane thread and no toolbar (the only [gh=mtb] is the list one)', () => {
    const thread = detectOpenThread(load('split-pane.html'));
    expect(thread?.id).toBe('18c2f0a1b2c3d4e6');
    expect(thread?.subject).toBe('Lunch on Friday?');
    expect(thread?.toolbar).toBeNull();
  });

  it('finds the toolbar beside the view in the older layout, skipping the hidden ones before it', () => {
    const thread = detectOpenThread(load('toolbar-beside-view.html'));
    expect(thread?.id).toBe('18c2f0a1b2c3d4e5');
    expect(thread?.toolbar?.id).toBe('conversation-toolbar');
  });

  it('without a toolbar, falls back to the perm id (decimal) as hex and floats', () => {
    const thread = detectOpenThread(load('no-toolbar.html'));
    expect(thread?.id).toBe('18c2f0a1b2c3d4e5');
    expect(thread?.toolbar).toBeNull();
  });
});

describe('the open message', () => {
  it('is the last message whose body shows: its sender and its text as shown, cut to the limit', () => {
    const thread = detectOpenThread(load('thread-open.html'))!;
    const message = readOpenMessage(thread.heading, 2000);
    expect(message?.sender).toBe('Bob Stone <bob@stone.test>');
    expect(message?.text.startsWith('Hi Ada,')).toBe(true);
    expect(message?.text).toContain('the quote for the roof is attached.');
    // Neither the collapsed earlier message nor a hidden view's message is read.
    expect(message?.text).not.toContain('Could you send a quote');
    expect(message?.text).not.toContain('Old message');
    const cut = readOpenMessage(thread.heading, 10)!.text;
    expect(cut.length).toBe(10);
    expect(cut.startsWith('Hi Ada,')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
  });

  it('is none when no message body shows', () => {
    const thread = detectOpenThread(load('split-pane.html'))!;
    expect(readOpenMessage(thread.heading, 2000)).toBeNull();
  });
});

describe('reading the subject', () => {
  it('reads emoji images as their characters, collapses whitespace and keeps long subjects whole', () => {
    const heading = document.createElement('h2');
    const long = 'word '.repeat(300);
    heading.innerHTML = `  Party <img alt="🎉" data-emoji="🎉">\n\t time <img alt="🥳"> ${long}`;
    const text = readableText(heading);
    expect(text.startsWith('Party 🎉 time 🥳 word')).toBe(true);
    expect(text.length).toBe('Party 🎉 time 🥳 '.length + long.trim().length);
    expect(text.length).toBeGreaterThan(1000);
  });

  it('never reads markup as markup: text stays text', () => {
    const heading = document.createElement('h2');
    heading.textContent = '<img src=x onerror=alert(1)> hi';
    expect(readableText(heading)).toBe('<img src=x onerror=alert(1)> hi');
  });

  it('rejects ids that are neither hex nor a thread perm id', () => {
    const heading = document.createElement('h2');
    heading.setAttribute('data-legacy-thread-id', 'not-hex!');
    expect(threadIdOf(heading)).toBeUndefined();
  });
});

describe('following single-page navigation', () => {
  it('reports the thread opening, then the list coming back, then another thread', async () => {
    load('list-view.html');
    const seen: (string | null)[] = [];
    const stop = watchOpenThread(document, (thread) => seen.push(thread?.id ?? null));
    const views = document.querySelectorAll<HTMLElement>('[role="main"]');
    const [earlier, list] = [views[0]!, views[1]!];

    // Open the earlier thread: Gmail shows its kept view and hides the list.
    list.style.display = 'none';
    earlier.style.display = '';
    await settle();
    // Back to the list.
    earlier.style.display = 'none';
    list.style.display = '';
    await settle();
    // A new thread view is rendered.
    const fresh = document.createElement('div');
    fresh.setAttribute('role', 'main');
    fresh.innerHTML =
      '<div gh="mtb"></div><h2 class="hP" data-legacy-thread-id="18c2f0a1b2c3d4e6">Lunch on Friday?</h2>';
    list.style.display = 'none';
    list.parentElement!.append(fresh);
    await settle();
    stop();
    expect(seen).toEqual(['18d0c1a2b3c4d5e1', null, '18c2f0a1b2c3d4e6']);
  });
});
