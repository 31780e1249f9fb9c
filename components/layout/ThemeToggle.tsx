'use client';
import { useEffect, useState } from 'react';
import { applyTheme, nextTheme, parseTheme, THEME_KEY, type Theme } from './theme';

const LABEL: Record<Theme, string> = { system: '◐ auto', light: '☀ light', dark: '☾ dark' };

/** Cycles auto → light → dark; the choice is stored in localStorage. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>('system');
  useEffect(() => {
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(THEME_KEY);
    } catch {
      /* storage unavailable */
    }
    setTheme(parseTheme(stored));
  }, []);
  const toggle = () => {
    const t = nextTheme(theme);
    setTheme(t);
    applyTheme(t, document.documentElement);
    try {
      if (t === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, t);
    } catch {
      /* storage unavailable: the choice lasts for this page */
    }
  };
  return (
    <button
      type="button"
      className="theme-toggle"
      data-testid="theme-toggle"
      onClick={toggle}
      title={`Theme: ${theme} (click to change)`}
      aria-label={`Theme: ${theme}`}
    >
      {LABEL[theme]}
    </button>
  );
}
