import { describe, expect, it } from 'vitest';
import { applyTheme, nextTheme, parseTheme, THEME_KEY, THEME_SCRIPT } from './theme';

describe('theme', () => {
  it('cycles auto → light → dark → auto', () => {
    expect([nextTheme('system'), nextTheme('light'), nextTheme('dark')]).toEqual(['light', 'dark', 'system']);
  });

  it('parses stored values; anything else follows the system', () => {
    expect([parseTheme('light'), parseTheme('dark'), parseTheme(null), parseTheme('purple')]).toEqual([
      'light',
      'dark',
      'system',
      'system',
    ]);
  });

  it('applyTheme sets data-theme for an explicit choice and removes it for system', () => {
    const attrs = new Map<string, string>();
    const root = { setAttribute: (n: string, v: string) => void attrs.set(n, v), removeAttribute: (n: string) => void attrs.delete(n) };
    applyTheme('dark', root);
    expect(attrs.get('data-theme')).toBe('dark');
    applyTheme('system', root);
    expect(attrs.has('data-theme')).toBe(false);
  });

  it('the pre-paint script reads the same storage key and only accepts light/dark', () => {
    const attrs = new Map<string, string>();
    const run = (stored: string | null) =>
      new Function('localStorage', 'document', THEME_SCRIPT)(
        { getItem: (k: string) => (k === THEME_KEY ? stored : null) },
        { documentElement: { setAttribute: (n: string, v: string) => attrs.set(n, v) } },
      );
    run('dark');
    expect(attrs.get('data-theme')).toBe('dark');
    attrs.clear();
    run('evil');
    expect(attrs.size).toBe(0);
  });
});
