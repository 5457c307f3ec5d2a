/**
 * The keyboard shortcut that opens the task panel. Alt+Shift+T, the first choice, is Chrome's own "focus
 * the toolbar", and Chrome leaves a clashing suggestion unset; Alt+Shift+K is free in Chrome and Firefox
 * (checked with `commands.getAll()` in both). A user may change it, so the UI reads the live one from the
 * background (`shortcut.get`), never this constant.
 */
export const CREATE_TASK_SHORTCUT = 'Alt+Shift+K';
export const CREATE_TASK_COMMAND = 'create-task';

/** Where each browser lets the user set or change an extension's shortcut, as the UI says it. */
export const SHORTCUT_SETTINGS: Record<'chrome' | 'firefox', string> = {
  chrome: 'chrome://extensions/shortcuts',
  firefox: 'about:addons → ⚙ → Manage Extension Shortcuts',
};
