// The page a browser gets when meshscope runs with a token and it has no session yet: one form that
// POSTs the token to /api/login (same origin, no script). Plain HTML, styled under the response's nonce.

/** Where the login form posts (handled in proxy.ts, never by a route). */
export const LOGIN_PATH = '/api/login';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A same-origin path to return to after login (`/x?y`); anything else (`//evil`, `https://…`) becomes `/`. */
export function safeNext(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

export function loginPage(opts: { nonce: string; next: string; error?: string }): string {
  const error = opts.error ? `<p class="err" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>meshscope: sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${escapeHtml(opts.nonce)}">
body{font:15px system-ui,sans-serif;max-width:28rem;margin:12vh auto;padding:0 1rem;color:#1b1f24}
input{width:100%;padding:.5rem;margin:.5rem 0;box-sizing:border-box;font:inherit}
button{padding:.5rem 1rem;font:inherit}.err{color:#b3261e}code{font-size:.9em}
</style></head><body>
<h1>meshscope</h1>
<p>This server requires its access token (<code>--auth-token-file</code> or <code>MESHSCOPE_AUTH_TOKEN</code>).</p>
${error}<form method="post" action="${LOGIN_PATH}">
<input type="hidden" name="next" value="${escapeHtml(safeNext(opts.next))}">
<label>Token <input type="password" name="token" autocomplete="current-password" required autofocus></label>
<button type="submit">Sign in</button>
</form></body></html>
`;
}
