// The bench table: one row per figure of issue 12, with its goal, the published anchor and the ratio
// measured/anchor. Printed as text and written to bench/results.json. Benchmarks are not tests: nothing
// here asserts a time; a row says whether its goal was met so a reader does not have to.
import { cpus, loadavg, totalmem } from 'node:os';
import type { ProfileSummary } from './profile';

export interface BenchRow {
  figure: string;
  size: string;
  /** The measured figure (ms, MiB, kB…); NaN when not measured. */
  value: number;
  unit: string;
  /** Lower is better; `goal` undefined: no goal for this figure. */
  goal?: number;
  anchor?: { value: number; text: string };
  /** Extra detail (counts, p50/p99, what was sent). */
  detail?: string;
  /** 1-minute load average when the figure was taken (other work on the machine). */
  load?: number;
  profile?: ProfileSummary;
}

export const ms = (t0: number) => performance.now() - t0;
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
export const percentile = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
};
export const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

export const met = (r: BenchRow): boolean | undefined => (r.goal === undefined || Number.isNaN(r.value) ? undefined : r.value <= r.goal);

const fmt = (v: number, unit: string) =>
  Number.isNaN(v) ? 'n/a' : `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`;

export function printTable(rows: readonly BenchRow[]): string {
  const head = ['figure', 'size', 'measured', 'goal', 'anchor', 'ratio', 'met', 'load'];
  const body = rows.map((r) => {
    const m = met(r);
    return [
      r.figure,
      r.size,
      fmt(r.value, r.unit),
      r.goal === undefined ? '—' : `≤ ${fmt(r.goal, r.unit)}`,
      r.anchor ? r.anchor.text : '—',
      r.anchor && !Number.isNaN(r.value) ? `${(r.value / r.anchor.value).toFixed(2)}×` : '—',
      m === undefined ? '—' : m ? 'yes' : 'NO',
      r.load === undefined ? '' : r.load.toFixed(2),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)];
  const details = rows.filter((r) => r.detail).map((r) => `- ${r.figure} (${r.size}): ${r.detail}`);
  return [...out, '', ...details].join('\n');
}

export function machine() {
  return { cpus: cpus().length, model: cpus()[0]?.model ?? '', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
}
