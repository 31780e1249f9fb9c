// Route graph → cytoscape element definitions (plain data; the renderer passes them to cytoscape as is).
// Classes carry the state the stylesheet draws: kind, shadowed (dashed), missing, on the traced path,
// rejected by the trace, selected, changed by an EnvoyFilter patch (patched), and for the sandbox a draft's change (diff-added / diff-removed /
// diff-changed). Edge width grows with the traffic share.
import type { TracePath } from './trace';
import type { RouteGraph } from './types';

export interface ElementDef {
  group: 'nodes' | 'edges';
  data: Record<string, string | number>;
  classes: string;
}

/** 1px for nothing, 6px for all of the traffic. */
export const edgeWidth = (percent: number | undefined) => (percent === undefined ? 1.5 : 1 + Math.min(100, Math.max(0, percent)) * 0.05);

/** Text width estimate for sizing nodes to their (wrapped) label. */
export function labelBox(label: string): { width: number; height: number } {
  const lines = label.split('\n').flatMap((l) => (l.length > 42 ? [l.slice(0, 42), l.slice(42)] : [l]));
  const longest = Math.max(4, ...lines.map((l) => l.length));
  return { width: Math.min(300, longest * 6.2 + 18), height: lines.length * 13 + 12 };
}

/** Sandbox marks: what a draft adds, removes or changes (by node / edge id). */
export interface DiffMarks {
  nodes: ReadonlyMap<string, 'added' | 'removed' | 'changed'>;
  edges: ReadonlyMap<string, 'added' | 'removed' | 'changed'>;
}

export function toElements(
  g: RouteGraph,
  opts: { selected?: string; trace?: TracePath; diff?: DiffMarks; patched?: ReadonlyMap<string, unknown> } = {},
): ElementDef[] {
  const out: ElementDef[] = [];
  const t = opts.trace;
  for (const n of g.nodes) {
    const classes: string[] = [n.kind];
    if (n.shadowed) classes.push('shadowed');
    if (n.missing) classes.push('missing');
    if (t?.nodes.has(n.id)) classes.push('on-path');
    if (t?.rejected.has(n.id)) classes.push('rejected');
    if (opts.selected === n.id) classes.push('selected');
    const nm = opts.diff?.nodes.get(n.id);
    if (nm) classes.push(`diff-${nm}`);
    if (opts.patched?.has(n.id)) classes.push('patched');
    const box = labelBox(n.label);
    out.push({ group: 'nodes', data: { id: n.id, label: n.label, kind: n.kind, w: box.width, h: box.height }, classes: classes.join(' ') });
  }
  const shadowed = new Set(g.nodes.filter((n) => n.shadowed).map((n) => n.id));
  for (const e of g.edges) {
    const classes: string[] = [e.kind];
    if (shadowed.has(e.target)) classes.push('to-shadowed');
    if (t?.edges.has(e.id)) classes.push('on-path');
    const em = opts.diff?.edges.get(e.id);
    if (em) classes.push(`diff-${em}`);
    out.push({
      group: 'edges',
      data: { id: e.id, source: e.source, target: e.target, label: e.label ?? '', width: edgeWidth(e.percent) },
      classes: classes.join(' '),
    });
  }
  return out;
}
