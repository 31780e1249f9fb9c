// Text formatting for the CLI: located errors (`file:doc (line N): Kind ns/name: path: message`) and tables.
import type { LoadError } from '../model/mesh';
import { byteCompare } from '../lib/compare';

export function formatError(e: LoadError): string {
  const parts: string[] = [];
  if (e.file !== undefined)
    parts.push((e.doc !== undefined ? `${e.file}:${e.doc}` : e.file) + (e.line !== undefined ? ` (line ${e.line})` : ''));
  if (e.object) parts.push(e.object);
  if (e.path) parts.push(e.path);
  const prefix = e.severity === 'warning' ? 'warning: ' : '';
  parts.push(prefix + e.message);
  return parts.join(': ');
}

/** Left-aligned columns separated by two spaces, header first (like kubectl get). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

export const formatLabels = (labels: Readonly<Record<string, string>>): string =>
  Object.entries(labels)
    .sort(([a], [b]) => byteCompare(a, b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
