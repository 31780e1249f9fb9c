// Theme choice: `system` follows prefers-color-scheme; `light`/`dark` set <html data-theme> and are
// persisted in localStorage. THEME_SCRIPT runs before paint so a stored choice never flashes.
export type Theme = 'system' | 'light' | 'dark';
export const THEME_KEY = 'meshscope-theme';
export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

export const parseTheme = (v: string | null | undefined): Theme => (v === 'light' || v === 'dark' ? v : 'system');

/** The next theme of the toggle's cycle. */
export const nextTheme = (t: Theme): Theme => THEMES[(THEMES.indexOf(t) + 1) % THEMES.length]!;

export function applyTheme(t: Theme, root: { setAttribute(n: string, v: string): void; removeAttribute(n: string): void }): void {
  if (t === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', t);
}

export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)});if(t==='light'||t==='dark')document.documentElement.setAttribute('data-theme',t)}catch(e){}`;
