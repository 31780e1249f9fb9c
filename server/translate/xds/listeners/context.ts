// Shared state of one buildSidecarListeners call: the view and the error sink. No module state.
import type { LoadError } from '../../../model/mesh';
import type { ProxyView } from '../../view/types';

export { configError } from '../../configError';

export interface BuildCtx {
  view: ProxyView;
  errors: LoadError[];
}

/**
 * host.Name.Matches (pkg/config/host/name.go): exact match, or overlap when either side is a
 * wildcard (`*` or `*.suffix`).
 */
export function hostsOverlap(a: string, b: string): boolean {
  const aw = a.startsWith('*');
  const bw = b.startsWith('*');
  if (aw && bw) return a.length < b.length ? b.slice(1).endsWith(a.slice(1)) : a.slice(1).endsWith(b.slice(1));
  if (aw) return b.endsWith(a.slice(1));
  if (bw) return a.endsWith(b.slice(1));
  return a === b;
}

const UNIT_NANOS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/**
 * An Istio duration as written in YAML (Go syntax like `1h30m`, `1.5s`, `100ms`, or proto form `3600s`)
 * → proto3 JSON Duration (`5400s`, `1.500s`). undefined when it does not parse.
 */
export function protoDuration(s: string): string | undefined {
  const re = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  if (!s || s === '0') return s === '0' ? '0s' : undefined;
  let nanos = 0;
  let pos = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    nanos += Number(m[1]) * (UNIT_NANOS[m[2] as string] as number);
    pos = re.lastIndex;
  }
  if (pos !== s.length) return undefined;
  const whole = Math.floor(Math.round(nanos) / 1e9);
  const frac = Math.round(nanos) % 1e9;
  if (frac === 0) return `${whole}s`;
  const digits = String(frac)
    .padStart(9, '0')
    .replace(/(0{3})+$/, '');
  return `${whole}.${digits}s`;
}
