// The one style sheet of the server-rendered pages (OAuth sign-in and consent, password pages):
// inline, allowed by its hash in the Content-Security-Policy, so the pages need no other request
// and no script. The look follows the dashboard's (system fonts, AA contrast, visible focus).
import { createHash } from 'node:crypto';

export const PAGE_CSS = `
:root { --ink:#1b1f24; --muted:#4a5360; --line:#c9d0d8; --bg:#f5f7fa; --card:#fff; --accent:#0b57d0; --danger:#b3261e; --ok:#146c2e;
  font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'DejaVu Sans', sans-serif; line-height:1.5; color:var(--ink); background:var(--bg); }
* { box-sizing:border-box; }
body { margin:0; }
main { display:flex; justify-content:center; padding:10vh 1rem 3rem; }
.card { width:100%; max-width:28rem; background:var(--card); border:1px solid var(--line); border-radius:8px; padding:1.25rem; }
h1 { font-size:1.5rem; margin:0 0 .75rem; }
p { margin:0 0 .75rem; }
.hint { color:var(--muted); font-size:.9rem; }
.field { margin:0 0 .9rem; display:flex; flex-direction:column; gap:.25rem; }
label { font-weight:600; }
input { font:inherit; color:var(--ink); background:#fff; border:1px solid #7b8794; border-radius:6px; padding:.5rem .6rem; min-height:44px; }
:focus-visible { outline:3px solid var(--accent); outline-offset:2px; }
.actions { display:flex; flex-wrap:wrap; gap:.5rem; margin:1rem 0 .75rem; }
button { font:inherit; min-height:44px; padding:.5rem 1rem; border-radius:6px; border:1px solid var(--accent); background:#fff; color:var(--accent); cursor:pointer; }
button.primary { background:var(--accent); color:#fff; }
ul.scopes { padding-left:1.25rem; margin:0 0 .75rem; }
.alert { border-left:4px solid var(--danger); background:#fdecea; padding:.5rem .75rem; margin:0 0 .9rem; }
.notice { border-left:4px solid var(--ok); background:#e7f4ea; padding:.5rem .75rem; margin:0 0 .9rem; }
a { color:var(--accent); }
`;

/** The CSP source that allows exactly this style sheet. */
export const PAGE_CSS_SOURCE = `'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`;
