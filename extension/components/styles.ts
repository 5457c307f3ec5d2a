/**
 * The UI's styles: the button's and the frame's in their shadow roots in the mailbox page (the mailbox's CSS
 * never reaches in, ours never leaks out), the panel's and the settings' in the extension's own pages (the
 * panel's frame and the options page).
 * Colours are variables so that one class (`tw-dark`, set when the mailbox shows a dark theme) switches them;
 * the light and dark pairs keep WCAG AA contrast.
 */
const COLOURS = `
:root, :host { --tw-bg: #fff; --tw-fg: #1f1f1f; --tw-label: #444746; --tw-muted: #5e5e5e; --tw-border: #747775;
  --tw-line: #e3e3e3; --tw-field: #fff; --tw-accent: #0b57d0; --tw-on-accent: #fff; --tw-soft: #d3e3fd;
  --tw-on-soft: #0842a0; --tw-error-bg: #fce8e6; --tw-error-line: #f6aea9; --tw-error-fg: #8c1d18;
  --tw-ok-bg: #e6f4ea; --tw-ok-line: #a8dab5; --tw-ok-fg: #0d652d; --tw-danger: #b3261e;
  --tw-optin-bg: #ffdf99; --tw-optin-fg: #251a00; --tw-page: #f6f8fc; }
.tw-dark { --tw-bg: #2d2f31; --tw-fg: #e3e3e3; --tw-label: #c4c7c5; --tw-muted: #c4c7c5; --tw-border: #8e918f;
  --tw-line: #444746; --tw-field: #1f1f1f; --tw-accent: #a8c7fa; --tw-on-accent: #062e6f; --tw-soft: #004a77;
  --tw-on-soft: #d3e3fd; --tw-error-bg: #601410; --tw-error-line: #8c1d18; --tw-error-fg: #f9dedc;
  --tw-ok-bg: #0f5223; --tw-ok-line: #146c2e; --tw-ok-fg: #c4eed0; --tw-danger: #f2b8b5;
  --tw-optin-bg: #5c4300; --tw-optin-fg: #ffdf99; --tw-page: #1b1b1b; color-scheme: dark; }
`;

/** The mailbox toolbar's button: toolbar-sized (32 px, like Gmail's own pills), in the toolbar's row. */
export const BUTTON_STYLES = `${COLOURS}
:host { all: initial; display: inline-flex; align-items: center; vertical-align: middle; flex: none; }
.tw-create { display: inline-flex; align-items: center; justify-content: center; gap: 4px; height: 32px; margin: 0 8px; padding: 0 14px 0 10px;
  border: none; border-radius: 16px; cursor: pointer; white-space: nowrap; background: var(--tw-soft);
  color: var(--tw-on-soft); font: 500 13px "Google Sans", Roboto, Arial, sans-serif; }
.tw-icon { font-size: 20px; font-weight: 400; line-height: 1; width: 16px; text-align: center; }
.tw-create:focus-visible { outline: 2px solid var(--tw-accent); outline-offset: 2px; }
.tw-create.tw-floating { position: fixed; right: 24px; bottom: 24px; z-index: 2147483000; height: 40px;
  padding: 0 18px 0 14px; box-shadow: 0 2px 6px rgba(0,0,0,.25); }
/* No room in the toolbar's row: the icon alone, the label still the button's name. */
.tw-create.tw-compact { width: 32px; padding: 0; margin: 0 4px; }
.tw-compact .tw-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

/**
 * The panel's frame in the mailbox: over the thread's right side, or in a window narrower than 900 px a sheet
 * over the lower part, so the thread's subject and first lines stay readable and clickable. Its height is
 * the panel's (the frame reports it), up to what the window leaves.
 */
export const FRAME_STYLES = `
:host { all: initial; }
.tw-frame { position: fixed; top: 72px; right: 16px; z-index: 2147483001; display: block; width: 400px;
  max-height: calc(100vh - 96px); border: 0; border-radius: 12px; box-shadow: 0 4px 16px rgba(0,0,0,.28);
  background: transparent; color-scheme: normal; visibility: hidden; }
.tw-frame.tw-open { visibility: visible; }
@media (max-width: 899px) {
  .tw-frame { top: auto; bottom: 0; left: 0; right: 0; width: 100%; max-height: 46vh; border-radius: 12px 12px 0 0;
    box-shadow: 0 -2px 12px rgba(0,0,0,.28); }
}
`;

/** The panel and the settings (the options page uses these too). */
export const STYLES = `${COLOURS}
* { box-sizing: border-box; font-family: "Google Sans", Roboto, Arial, sans-serif; font-size: 13px; color: inherit; }
.tw-panel, .tw-page { color: var(--tw-fg); }
button { cursor: pointer; border: 1px solid var(--tw-border); background: var(--tw-field); color: var(--tw-fg); border-radius: 16px; padding: 4px 12px; }
button:disabled, button[aria-disabled=true] { opacity: .6; cursor: default; }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, [tabindex]:focus-visible { outline: 2px solid var(--tw-accent); outline-offset: 1px; }
.tw-panel { background: var(--tw-bg); padding: 12px 16px 16px; outline: none; }
.tw-page .tw-panel { border-radius: 12px; }
.tw-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin-bottom: 8px; }
.tw-head h1, .tw-head h2 { margin: 0; font-size: 16px; font-weight: 500; }
.tw-head button { border: none; background: none; padding: 4px 8px; }
.tw-form { display: flex; flex-direction: column; gap: 8px; }
.tw-form label, .tw-field { display: flex; flex-direction: column; gap: 2px; color: var(--tw-label); font-size: 12px; flex: 1; min-width: 0; }
.tw-form label.tw-check { flex-direction: row; align-items: center; gap: 6px; }
.tw-check input { flex: none; }
.tw-pickers { display: grid; grid-template-columns: auto 1fr; gap: 6px 10px; align-items: center; }
.tw-pickers label { display: contents; }
input, select, textarea { font-size: 13px; border: 1px solid var(--tw-border); border-radius: 6px; padding: 5px 7px; background: var(--tw-field); color: var(--tw-fg); width: 100%; min-width: 0; }
input[type=checkbox], input[type=radio] { width: auto; }
textarea { resize: vertical; }
.tw-row { display: flex; gap: 8px; flex-wrap: wrap; }
.tw-buttons { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; }
.tw-chips { display: flex; gap: 4px; flex-wrap: wrap; border: 0; margin: 2px 0 0; padding: 0; min-width: 0; }
.tw-chips button { padding: 2px 10px; font-size: 12px; }
.tw-primary { background: var(--tw-accent); border-color: var(--tw-accent); color: var(--tw-on-accent); font-weight: 500; padding: 7px 16px; }
.tw-danger { background: var(--tw-danger); border-color: var(--tw-danger); color: var(--tw-bg); }
.tw-error { background: var(--tw-error-bg); border: 1px solid var(--tw-error-line); border-radius: 8px; padding: 8px 10px; color: var(--tw-error-fg); overflow-wrap: anywhere; }
.tw-error-detail { margin-top: 4px; font-size: 12px; max-height: 9em; overflow-y: auto; }
.tw-error .tw-buttons { margin-top: 6px; }
.tw-error .tw-buttons button:not(.tw-link) { background: var(--tw-bg); }
.tw-ok { background: var(--tw-ok-bg); border: 1px solid var(--tw-ok-line); border-radius: 8px; padding: 8px 10px; color: var(--tw-ok-fg); overflow-wrap: anywhere; }
.tw-ok .tw-buttons { margin-top: 8px; }
.tw-ok p { margin: 0 0 6px; }
.tw-link { display: inline; border: none; background: none; color: var(--tw-accent); text-decoration: underline; padding: 4px 0 0; }
.tw-muted { color: var(--tw-muted); }
.tw-progress { color: var(--tw-muted); margin: 0; }
.tw-section { border-top: 1px solid var(--tw-line); padding-top: 8px; margin-top: 4px; }
.tw-section h3, .tw-linked h3 { font-size: 13px; margin: 4px 0; font-weight: 500; }
.tw-linked ul, .tw-keys, .tw-found { list-style: none; margin: 0; padding: 0; }
.tw-linked li, .tw-keys li { display: flex; justify-content: space-between; align-items: center; gap: 6px; padding: 6px 0; border-top: 1px solid var(--tw-line); overflow-wrap: anywhere; }
.tw-found li label { flex-direction: row; align-items: center; gap: 6px; color: var(--tw-fg); font-size: 13px; padding: 2px 0; }
.tw-actions { display: flex; gap: 4px; flex-shrink: 0; }
.tw-done { text-decoration: line-through; color: var(--tw-muted); }
.tw-tabs { display: flex; gap: 4px; margin-bottom: 10px; }
.tw-tabs [aria-selected=true] { background: var(--tw-soft); border-color: var(--tw-soft); color: var(--tw-on-soft); }
.tw-scopes { border: 1px solid var(--tw-line); border-radius: 6px; display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.tw-scope-group { border: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 2px 8px; min-width: 0; }
.tw-scope-group legend { font-weight: 500; padding: 0; margin-bottom: 2px; }
.tw-scopes code { font-size: 11px; }
.tw-keys li { display: block; }
.tw-key-line { display: flex; justify-content: space-between; align-items: center; gap: 6px; }
.tw-key-name { min-width: 0; }
.tw-key-scopes { font-size: 12px; overflow-wrap: anywhere; }
.tw-badge { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; background: var(--tw-soft); color: var(--tw-on-soft); font-size: 11px; }
.tw-optin { background: var(--tw-optin-bg); color: var(--tw-optin-fg); }
.tw-warning { margin: 6px 0 0; padding: 6px 8px; border-radius: 6px; background: var(--tw-error-bg); color: var(--tw-error-fg); }
p.tw-hint { margin: 10px 0 0; overflow-wrap: anywhere; }
.tw-inline { padding: 0; }
code { font-family: "Roboto Mono", monospace; font-size: 12px; }
kbd { font-family: monospace; font-size: 12px; border: 1px solid var(--tw-border); border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; }
.tw-welcome { background: var(--tw-bg); color: var(--tw-fg); border-radius: 12px; padding: 12px 16px; border: 1px solid var(--tw-soft); }
.tw-welcome h2 { font-size: 16px; font-weight: 500; margin: 0 0 6px; }
.tw-welcome p, .tw-welcome li { line-height: 1.45; }
.tw-welcome ul { margin: 6px 0; padding-left: 20px; }
.tw-settings { min-width: 0; }
.tw-secret { display: block; word-break: break-all; background: var(--tw-field); padding: 6px; margin: 6px 0; border-radius: 4px; font-family: monospace; }
.tw-hint { color: var(--tw-muted); font-size: 12px; }
/* Create stays in reach while the form scrolls in a short panel. */
.tw-submit { position: sticky; bottom: 0; z-index: 1; background: var(--tw-bg); padding: 8px 0; margin: -8px 0; }
.tw-notice { margin: 0; padding: 6px 8px; border-radius: 6px; background: var(--tw-soft); color: var(--tw-on-soft); overflow-wrap: anywhere; }
.tw-problem { color: var(--tw-error-fg); font-size: 12px; }
input[aria-invalid=true] { border-color: var(--tw-danger); }
.tw-notes-hint { margin: 2px 0 0; }
.tw-fields { border: 1px solid var(--tw-line); border-radius: 8px; margin: 0; padding: 4px 10px 10px; display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.tw-fields > legend, .tw-field-options > legend { color: var(--tw-label); font-size: 12px; padding: 0 4px; }
.tw-field-options { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 14px; min-width: 0; }
.tw-field-options > legend { padding: 0; margin-bottom: 2px; }
.tw-field-options label { flex: none; }
`;
