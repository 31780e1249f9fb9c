// The CSRF token of the signed-in session (`serve --auth token|header|openid`): the layout renders it into
// <meta name="meshscope-csrf">, and every state-changing request the UI sends carries it as X-CSRF-Token.
// Absent without sign-in (then the header is simply not sent).
export const CSRF_META = 'meshscope-csrf';

export function csrfHeader(): Record<string, string> {
  if (typeof document === 'undefined') return {};
  const token = document.querySelector<HTMLMetaElement>(`meta[name="${CSRF_META}"]`)?.content;
  return token ? { 'x-csrf-token': token } : {};
}
