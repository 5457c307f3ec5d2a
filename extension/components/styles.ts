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
.tw-head h2 { margin: 0; font-size: 16px; font-weight: 500; }
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
.tw-error-detail { margin-top: 4px; font-size: 12px; }
.tw-ok { background: #e6f4ea; border: 1px solid #a8dab5; border-radius: 8px; padding: 8px 10px; }
.tw-link { display: block; border: none; background: none; color: #0b57d0; text-decoration: underline; padding: 4px 0 0; }
.tw-muted { color: #5e5e5e; }
.tw-linked h3 { font-size: 13px; margin: 12px 0 4px; font-weight: 500; }
.tw-linked ul, .tw-keys { list-style: none; margin: 0; padding: 0; }
.tw-linked li, .tw-keys li { display: flex; justify-content: space-between; align-items: center; gap: 6px; padding: 6px 0; border-top: 1px solid #eee; }
.tw-actions { display: flex; gap: 4px; flex-shrink: 0; }
.tw-done { text-decoration: line-through; color: #5e5e5e; }
.tw-tabs { display: flex; gap: 4px; margin-bottom: 10px; }
.tw-tabs [aria-selected=true] { background: #d3e3fd; border-color: #d3e3fd; }
.tw-scopes { display: grid; grid-template-columns: 1fr 1fr; gap: 2px 8px; border: 1px solid #e0e0e0; border-radius: 6px; }
.tw-secret { display: block; word-break: break-all; background: #fff; padding: 6px; margin: 6px 0; border-radius: 4px; font-family: monospace; }
`;
