/** The UI's styles, put in each shadow root: the mailbox's CSS never reaches in, ours never leaks out. */
export const STYLES = `
:host { all: initial; }
* { box-sizing: border-box; font-family: "Google Sans", Roboto, Arial, sans-serif; font-size: 13px; color: #1f1f1f; }
button { cursor: pointer; border: 1px solid #c4c7c5; background: #fff; border-radius: 16px; padding: 4px 12px; }
button:disabled { opacity: .55; cursor: default; }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 2px solid #0b57d0; outline-offset: 1px; }
.tw-create { display: inline-flex; align-items: center; gap: 6px; height: 32px; margin: 0 8px; background: #e8f0fe; border-color: #e8f0fe; color: #0b57d0; font-weight: 500; }
.tw-create.tw-floating { position: fixed; right: 24px; bottom: 24px; z-index: 2147483000; height: 40px; padding: 0 18px; box-shadow: 0 2px 6px rgba(0,0,0,.25); }
.tw-panel { position: fixed; top: 72px; right: 16px; z-index: 2147483001; width: 380px; max-height: calc(100vh - 96px); overflow: auto; background: #fff; border-radius: 12px; box-shadow: 0 4px 16px rgba(0,0,0,.28); padding: 12px 16px 16px; }
.tw-page .tw-panel { position: static; box-shadow: none; width: auto; max-height: none; }
.tw-head { display: flex; align-items: center; justify-content: space-between; margin-bottom: 8px; }
.tw-head h1, .tw-head h2 { margin: 0; font-size: 16px; font-weight: 500; }
.tw-head button { border: none; padding: 4px 8px; }
.tw-form { display: flex; flex-direction: column; gap: 8px; }
.tw-form label { display: flex; flex-direction: column; gap: 2px; color: #444746; font-size: 12px; flex: 1; }
.tw-form label.tw-check { flex-direction: row; align-items: center; gap: 6px; }
input, select, textarea { font-size: 13px; border: 1px solid #c4c7c5; border-radius: 6px; padding: 5px 7px; background: #fff; width: 100%; }
input[type=checkbox] { width: auto; }
textarea { resize: vertical; }
.tw-row { display: flex; gap: 8px; }
.tw-buttons { display: flex; gap: 8px; }
.tw-primary { background: #0b57d0; border-color: #0b57d0; color: #fff; font-weight: 500; padding: 7px 16px; }
.tw-danger { background: #b3261e; border-color: #b3261e; color: #fff; }
.tw-error { background: #fce8e6; border: 1px solid #f6aea9; border-radius: 8px; padding: 8px 10px; color: #8c1d18; }
.tw-error strong, .tw-error div { color: #8c1d18; }
.tw-error-detail { margin-top: 4px; font-size: 12px; overflow-wrap: anywhere; max-height: 9em; overflow-y: auto; }
.tw-ok { background: #e6f4ea; border: 1px solid #a8dab5; border-radius: 8px; padding: 8px 10px; }
.tw-ok p { margin: 0 0 6px; }
.tw-link { display: block; border: none; background: none; color: #0b57d0; text-decoration: underline; padding: 4px 0 0; }
.tw-muted { color: #5e5e5e; }
.tw-linked h3 { font-size: 13px; margin: 12px 0 4px; font-weight: 500; }
.tw-linked ul, .tw-keys { list-style: none; margin: 0; padding: 0; }
.tw-linked li, .tw-keys li { display: flex; justify-content: space-between; align-items: center; gap: 6px; padding: 6px 0; border-top: 1px solid #eee; }
.tw-actions { display: flex; gap: 4px; flex-shrink: 0; }
.tw-done { text-decoration: line-through; color: #5e5e5e; }
.tw-tabs { display: flex; gap: 4px; margin-bottom: 10px; }
.tw-tabs [aria-selected=true] { background: #d3e3fd; border-color: #d3e3fd; }
.tw-scopes { border: 1px solid #e0e0e0; border-radius: 6px; display: flex; flex-direction: column; gap: 6px; min-width: 0; }
.tw-scope-group { border: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 2px 8px; min-width: 0; }
.tw-scope-group legend { font-weight: 500; padding: 0; margin-bottom: 2px; }
.tw-scopes code { font-size: 11px; }
.tw-keys li { display: block; }
.tw-key-line { display: flex; justify-content: space-between; align-items: center; gap: 6px; }
.tw-key-name { min-width: 0; overflow-wrap: anywhere; }
.tw-badge { display: inline-block; margin-left: 6px; padding: 0 6px; border-radius: 8px; background: #d3e3fd; color: #041e49; font-size: 11px; }
.tw-optin { background: #ffdf99; color: #251a00; }
.tw-warning { margin: 6px 0 0; padding: 6px 8px; border-radius: 6px; background: #fce8e6; color: #8c1d18; }
.tw-hint { margin: 10px 0 0; font-size: 12px; overflow-wrap: anywhere; }
.tw-inline { display: inline; padding: 0; }
code { font-family: "Roboto Mono", monospace; font-size: 12px; }
kbd { font-family: monospace; font-size: 12px; border: 1px solid #c4c7c5; border-bottom-width: 2px; border-radius: 4px; padding: 0 4px; }
.tw-welcome { background: #fff; border-radius: 12px; padding: 12px 16px; border: 1px solid #d3e3fd; }
.tw-welcome h2 { font-size: 16px; font-weight: 500; margin: 0 0 6px; }
.tw-welcome p, .tw-welcome li { line-height: 1.45; }
.tw-welcome ul { margin: 6px 0; padding-left: 20px; }
.tw-settings { min-width: 0; }
/* Dark: the container carries .tw-dark (the options page follows the system theme). */
.tw-dark, .tw-dark * { color: #e3e3e3; }
.tw-dark .tw-panel, .tw-dark .tw-welcome, .tw-dark button, .tw-dark .tw-secret { background: #2d2e30; border-color: #5f6368; }
.tw-dark input, .tw-dark select, .tw-dark textarea { background: #1f1f1f; border-color: #8e918f; }
.tw-dark .tw-form label, .tw-dark .tw-muted, .tw-dark .tw-muted * { color: #c4c7c5; }
.tw-dark .tw-primary { background: #a8c7fa; border-color: #a8c7fa; color: #062e6f; }
.tw-dark .tw-danger { background: #f2b8b5; border-color: #f2b8b5; color: #601410; }
.tw-dark .tw-link, .tw-dark .tw-link * { background: none; color: #a8c7fa; }
.tw-dark .tw-tabs [aria-selected=true] { background: #004a77; border-color: #004a77; color: #c2e7ff; }
.tw-dark .tw-error, .tw-dark .tw-warning { background: #601410; border-color: #8c1d18; }
.tw-dark .tw-error *, .tw-dark .tw-error, .tw-dark .tw-warning { color: #f9dedc; }
.tw-dark .tw-ok { background: #0f5223; border-color: #146c2e; }
.tw-dark .tw-ok * { color: #c4eed0; }
.tw-dark .tw-badge { background: #004a77; color: #c2e7ff; }
.tw-dark .tw-optin { background: #5c4300; color: #ffdf99; }
.tw-dark .tw-scopes, .tw-dark .tw-keys li { border-color: #5f6368; }
.tw-secret { display: block; word-break: break-all; background: #fff; padding: 6px; margin: 6px 0; border-radius: 4px; font-family: monospace; }
`;
