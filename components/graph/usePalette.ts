'use client';
// The page's colour palette for cytoscape canvases (mesh graph, route graph): read from the CSS variables
// and re-read when the theme changes (data-theme / class on <html>, or the OS preference). Browser-only.
import { useEffect, useState } from 'react';
import { LIGHT, type Palette } from './elements';

function readPalette(): Palette {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: v('--fg', LIGHT.fg),
    muted: v('--muted', LIGHT.muted),
    bg: v('--bg', LIGHT.bg),
    panel: v('--panel', LIGHT.panel),
    border: v('--border', LIGHT.border),
    accent: v('--accent', LIGHT.accent),
    warn: v('--warn', LIGHT.warn),
    error: v('--error', LIGHT.error),
    ok: v('--ok', LIGHT.ok),
  };
}

/** The current palette; undefined until mounted (first effect). */
export function usePalette(): Palette | undefined {
  const [palette, setPalette] = useState<Palette>();
  useEffect(() => {
    const update = () => setPalette(readPalette());
    update();
    const mo = new MutationObserver(update);
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    mq.addEventListener('change', update);
    return () => {
      mo.disconnect();
      mq.removeEventListener('change', update);
    };
  }, []);
  return palette;
}
