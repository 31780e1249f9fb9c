// Pure model of the Drift view: one side of a differing resource printed as indented JSON, line by line,
// each line marked when it lies inside a differing field path of the drift body (server/drift/paths.ts
// syntax: `a.b[name-or-index].c`). Browser-safe.

export interface PrintedLine {
  text: string;
  /** Inside a differing field (or the key line of one). */
  hit: boolean;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The rest of `path` after `key` when `path` continues into `key` ("" when it ends there), else undefined. */
function enterKey(path: string, key: string): string | undefined {
  if (path === key) return '';
  if (path.startsWith(`${key}.`)) return path.slice(key.length + 1);
  if (path.startsWith(`${key}[`)) return path.slice(key.length);
  return undefined;
}

/** The rest of `path` after an array element named `[index]` or `[name]`, else undefined. */
function enterElement(path: string, index: number, name: string | undefined): string | undefined {
  for (const seg of [`[${index}]`, ...(name !== undefined ? [`[${name}]`] : [])]) {
    if (path === seg) return '';
    if (path.startsWith(`${seg}.`)) return path.slice(seg.length + 1);
    if (path.startsWith(`${seg}[`)) return path.slice(seg.length);
  }
  return undefined;
}

const nameOf = (v: Json): string | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && typeof v['name'] === 'string' && v['name'] !== '' ? v['name'] : undefined;

/** Prints `value` as 2-space indented JSON lines, marking the lines under any of `paths` (`.` = everything). */
export function printWithPaths(value: unknown, paths: readonly string[]): PrintedLine[] {
  const out: PrintedLine[] = [];
  const walk = (v: Json, indent: string, prefix: string, suffix: string, active: string[], inHit: boolean): void => {
    const hit = inHit || active.includes('');
    const live = hit ? [] : active;
    if (v === null || typeof v !== 'object') {
      out.push({ text: `${indent}${prefix}${JSON.stringify(v)}${suffix}`, hit });
      return;
    }
    const entries: [string, Json, string[]][] = Array.isArray(v)
      ? v.map((x, i) => [
          '',
          x,
          live.flatMap((p) => {
            const r = enterElement(p, i, nameOf(x));
            return r === undefined ? [] : [r];
          }),
        ])
      : Object.entries(v).map(([k, x]) => [
          `${JSON.stringify(k)}: `,
          x,
          live.flatMap((p) => {
            const r = enterKey(p, k);
            return r === undefined ? [] : [r];
          }),
        ]);
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      out.push({ text: `${indent}${prefix}${open}${close}${suffix}`, hit });
      return;
    }
    out.push({ text: `${indent}${prefix}${open}`, hit });
    entries.forEach(([p, x, sub], i) => walk(x, `${indent}  `, p, i < entries.length - 1 ? ',' : '', sub, hit));
    out.push({ text: `${indent}${close}${suffix}`, hit });
  };
  walk((value ?? null) as Json, '', '', '', paths.includes('.') ? [''] : [...paths], false);
  return out;
}

/** Counts of the body as one line: "2 changed, 1 only in Envoy, …" (zero counts left out). */
export function driftSummary(
  counts: Record<string, { same: number; changed: number; onlyInEnvoy: number; onlyInMeshscope: number }>,
  labels: { expected: string; actual: string } = { expected: 'meshscope', actual: 'Envoy' },
): string {
  let changed = 0;
  let onlyA = 0;
  let onlyE = 0;
  for (const c of Object.values(counts)) {
    changed += c.changed;
    onlyA += c.onlyInEnvoy;
    onlyE += c.onlyInMeshscope;
  }
  const parts = [
    changed ? `${changed} changed` : '',
    onlyA ? `${onlyA} only in ${labels.actual}` : '',
    onlyE ? `${onlyE} only in ${labels.expected}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no differences';
}
