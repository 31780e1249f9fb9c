// What is drawn on an edge of a merged graph type (server/meshGraph/graphType.ts): only numbers — the
// configured split (`v1 80 · v2 20%`), and with Prometheus the observed one and the request rate
// (`seen 78 · 22% · 3.2/s`, `· 5% err` when requests fail). An edge with nothing to count has no label.
import type { TypedEdge } from '@/server/meshGraph/graphType';

const num = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const rate = (rps: number) => `${rps >= 10 ? Math.round(rps) : rps >= 1 ? rps.toFixed(1) : rps.toFixed(2)}/s`;

export function mergedEdgeLabel(e: TypedEdge): string {
  if (e.kind === 'endpoint' || e.kind === 'default' || !e.splits) return '';
  const lines: string[] = [];
  const configured = e.splits.filter((s) => s.configuredPercent !== undefined);
  if (configured.length > 1) lines.push(`${configured.map((s) => `${s.subset ?? ''} ${num(s.configuredPercent!)}`.trim()).join(' · ')}%`);
  // An idle configured path (0 requests/s) carries no observed figures: zeros on every edge are noise.
  if (e.observed && e.observed.requestsPerSecond > 0) {
    const parts: string[] = [];
    const seen = e.splits.filter((s) => s.observed);
    // every subset's share, idle subsets included (0), so the observed split lines up with the configured one
    if (seen.length > 1) parts.push(`seen ${seen.map((s) => num(s.observed!.percent)).join(' · ')}%`);
    parts.push(rate(e.observed.requestsPerSecond));
    if (e.observed.errorPercent > 0) parts.push(`${num(e.observed.errorPercent)}% err`);
    lines.push(`${e.unconfigured && !e.routes?.length ? 'unconfigured ' : ''}${parts.join(' · ')}`);
  }
  return lines.join('\n');
}
