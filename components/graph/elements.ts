// Pure: the filtered mesh graph → cytoscape element definitions, stylesheet and layout options.
// The renderer (MeshGraphCanvas) only hands these to cytoscape.
import type { MeshEdge, MeshNode } from '@/server/api/contract';
import { type CollapsedGraph, isAggregated, summaryText } from './collapse';
import { mergedEdgeLabel } from './edgeLabels';
import type { FilteredGraph } from './filter';
import type { MergedEdgeFields } from '@/server/meshGraph/graphType';

export interface NodeData {
  id: string;
  label: string;
  kind: MeshNode['kind'];
  parent?: string;
  /** Where a click goes: a proxy page; undefined for nodes that focus instead. */
  href?: string;
  /** A collapsed namespace (collapse.ts): a click expands it. */
  collapsed?: boolean;
}

export interface EdgeData {
  id: string;
  source: string;
  target: string;
  /** Short text drawn on the edge (`v1 80%`); the full description is in `full`. */
  label: string;
  full: string;
  kind: MeshEdge['kind'];
  /** Line width in px: 1.5 for plain edges, up to 7 for a 100% share of a split. */
  width: number;
  /** An aggregated edge (to or from a collapsed namespace): how many edges it stands for. */
  count?: number;
}

export interface GraphElement {
  group: 'nodes' | 'edges';
  data: NodeData | EdgeData;
  classes: string;
}

/** Edge width grows with the rule's share of traffic, so splits read at a glance. */
export const edgeWidth = (e: Pick<MeshEdge, 'kind' | 'percent' | 'split'>): number =>
  e.kind === 'route' && e.split && e.percent !== undefined
    ? Math.round((1.5 + (e.percent / 100) * 5.5) * 10) / 10
    : e.kind === 'route'
      ? 2.5
      : 1.5;

/** What is drawn on an edge: the subset and share of a split (`v1 80%`), the subset, or the rule name; merged edges (graph types): numbers only. */
export function shortEdgeLabel(e: MeshEdge & MergedEdgeFields): string {
  if (e.splits) return mergedEdgeLabel(e);
  if (e.kind === 'endpoint' || e.kind === 'default') return '';
  if (e.kind === 'mirror') return 'mirror';
  if (e.kind === 'waypoint') return 'waypoint';
  if (e.split) return `${e.subset ?? ''} ${e.percent ?? 0}%`.trim();
  return e.subset ?? '';
}

export const proxyHref = (proxyId: string): string => `/proxies/${encodeURIComponent(proxyId)}`;

/** Node text: the name, then its badges (`[VS 1] [subsets 3]`). */
export function nodeLabel(n: MeshNode): string {
  const badges = n.badges.map((b) => `[${b.text}]`).join(' ');
  return badges ? `${n.label}\n${badges}` : n.label;
}

/** Width of an edge standing for `count` edges: grows with log2(count), 1.5 to 7 px. */
const aggregatedWidth = (count: number): number => Math.min(7, Math.round((1.5 + Math.log2(Math.max(1, count)) * 0.75) * 10) / 10);

export function toElements(g: FilteredGraph | CollapsedGraph, changedProxyIds: ReadonlySet<string> = new Set()): GraphElement[] {
  const out: GraphElement[] = [];
  const collapsed = 'collapsed' in g ? g.collapsed : undefined;
  // A workload or app that holds nothing is drawn as a node of its own (the graph types), not as a box.
  const parents = new Set<string>();
  for (const n of g.nodes) if (n.parent) parents.add(n.parent);
  for (const n of g.nodes) {
    const summary = collapsed?.get(n.id);
    if (summary) {
      const text = summaryText(summary);
      out.push({
        group: 'nodes',
        data: { id: n.id, label: text ? `${n.label}\n${text}` : n.label, kind: n.kind, collapsed: true },
        classes: 'namespace collapsed',
      });
      continue;
    }
    const data: NodeData = { id: n.id, label: nodeLabel(n), kind: n.kind };
    if (n.parent) data.parent = n.parent;
    if (n.proxyId) data.href = proxyHref(n.proxyId);
    const classes = [
      n.kind,
      (n.kind === 'workload' || n.kind === 'app') && !parents.has(n.id) ? 'leaf' : '',
      ...n.badges.map((b) => `badge-${b.kind}`),
      n.proxyId && changedProxyIds.has(n.proxyId) ? 'changed' : '',
    ].filter(Boolean);
    out.push({ group: 'nodes', data, classes: classes.join(' ') });
  }
  for (const e of g.edges) {
    if (isAggregated(e)) {
      out.push({
        group: 'edges',
        data: {
          id: e.id,
          source: e.source,
          target: e.target,
          label: String(e.count),
          full: e.label,
          kind: e.kind,
          width: aggregatedWidth(e.count),
          count: e.count,
        },
        classes: [e.kind, 'aggregated', e.fault ? 'fault' : ''].filter(Boolean).join(' '),
      });
      continue;
    }
    const classes = [
      e.kind,
      e.split ? 'split' : '',
      e.fault ? 'fault' : '',
      (e as MergedEdgeFields).unconfigured ? 'unconfigured' : '',
    ].filter(Boolean);
    out.push({
      group: 'edges',
      data: { id: e.id, source: e.source, target: e.target, label: shortEdgeLabel(e), full: e.label, kind: e.kind, width: edgeWidth(e) },
      classes: classes.join(' '),
    });
  }
  return out;
}

export interface Palette {
  fg: string;
  muted: string;
  bg: string;
  panel: string;
  border: string;
  accent: string;
  warn: string;
  error: string;
  ok: string;
}

export const LIGHT: Palette = {
  fg: '#1d2330',
  muted: '#6b7280',
  bg: '#ffffff',
  panel: '#f7f8fa',
  border: '#d9dde3',
  accent: '#2563eb',
  warn: '#b45309',
  error: '#b91c1c',
  ok: '#15803d',
};

/** Cytoscape stylesheet (plain JSON) for a palette taken from the page's CSS variables. */
export function stylesheet(p: Palette): Array<{ selector: string; style: Record<string, string | number> }> {
  return [
    {
      selector: 'node',
      style: {
        label: 'data(label)',
        'font-size': 13,
        color: p.fg,
        'text-wrap': 'wrap',
        'text-valign': 'center',
        'text-halign': 'center',
        'background-color': p.panel,
        'border-width': 1.5,
        'border-color': p.border,
        shape: 'round-rectangle',
        width: 'label',
        height: 'label',
        padding: '8px',
      },
    },
    { selector: 'node.service', style: { 'border-color': p.accent, 'background-color': p.bg, shape: 'round-rectangle' } },
    { selector: 'node.proxy', style: { shape: 'ellipse', 'border-color': p.ok } },
    { selector: 'node.pod', style: { shape: 'ellipse', 'border-style': 'dashed' } },
    { selector: 'node.badge-gateway', style: { shape: 'diamond', 'border-color': p.accent, 'border-width': 2.5, padding: '14px' } },
    { selector: 'node.badge-fault', style: { 'border-color': p.error } },
    { selector: 'node.badge-external', style: { 'border-style': 'dashed' } },
    // Ambient (server/meshGraph/ambient): enrolled pods and namespaces, waypoints, L7 config without a waypoint.
    { selector: 'node.badge-ambient', style: { 'border-style': 'double', 'border-width': 3, 'border-color': p.ok } },
    { selector: 'node.badge-waypoint', style: { shape: 'hexagon', 'border-width': 2.5, padding: '12px' } },
    { selector: 'node.badge-no-waypoint', style: { 'border-color': p.warn, 'border-width': 3 } },
    {
      selector: ':parent',
      style: {
        'text-valign': 'top',
        'text-halign': 'center',
        'background-opacity': 0.35,
        'border-style': 'solid',
        padding: '12px',
        'font-weight': 'bold',
      },
    },
    { selector: 'node.namespace', style: { 'background-color': p.panel, 'border-color': p.border, 'font-size': 14 } },
    { selector: 'node.collapsed', style: { 'border-style': 'double', 'border-width': 4, 'font-size': 13.5, 'background-color': p.panel } },
    { selector: 'node.workload', style: { 'background-color': p.bg, 'border-style': 'dotted', color: p.muted } },
    { selector: 'node.leaf', style: { 'border-style': 'solid', 'border-color': p.ok, color: p.fg, 'font-size': 13.5 } },
    { selector: 'node.app:parent', style: { 'background-color': p.bg, 'border-color': p.ok, 'border-style': 'dashed', 'font-size': 13.5 } },
    { selector: 'node.changed', style: { 'border-color': p.warn, 'border-width': 4 } },
    { selector: 'node:selected', style: { 'border-color': p.accent, 'border-width': 3 } },
    {
      selector: 'edge',
      style: {
        width: 'data(width)',
        'curve-style': 'bezier',
        'target-arrow-shape': 'triangle',
        'line-color': p.muted,
        'target-arrow-color': p.muted,
        label: 'data(label)',
        'font-size': 10.5,
        'text-wrap': 'wrap',
        color: p.fg,
        'text-background-color': p.bg,
        'text-background-opacity': 0.85,
        'text-background-padding': '2px',
        'text-rotation': 'autorotate',
      },
    },
    { selector: 'edge.route', style: { 'line-color': p.accent, 'target-arrow-color': p.accent } },
    { selector: 'edge.fault', style: { 'line-color': p.error, 'target-arrow-color': p.error } },
    { selector: 'edge.mirror', style: { 'line-style': 'dashed', 'line-color': p.warn, 'target-arrow-color': p.warn } },
    { selector: 'edge.unconfigured', style: { 'line-style': 'dashed', 'line-color': p.error, 'target-arrow-color': p.error } },
    { selector: 'edge.default', style: { 'line-style': 'dotted', opacity: 0.5 } },
    { selector: 'edge.endpoint', style: { 'line-style': 'dashed', opacity: 0.6, 'target-arrow-shape': 'vee' } },
    {
      selector: 'edge.waypoint',
      style: { 'line-style': 'dashed', 'line-color': p.ok, 'target-arrow-color': p.ok, 'target-arrow-shape': 'diamond' },
    },
  ];
}

/**
 * Extra rules for a large graph (thousands of elements): straight "haystack" edges without labels, the
 * cheapest cytoscape draws (its performance notes), so the main thread is not busy for seconds drawing
 * 10,000 labelled curves. Aggregated edges of a collapsed view keep their count label.
 */
export const LARGE_GRAPH_STYLE: Array<{ selector: string; style: Record<string, string | number> }> = [
  { selector: 'edge', style: { 'curve-style': 'haystack', label: '', 'target-arrow-shape': 'none' } },
  { selector: 'edge.aggregated', style: { label: 'data(label)' } },
];

/** Elements (nodes + edges) from which a graph counts as large. */
export const LARGE_GRAPH = 1500;

/** dagre, left to right: callers → services → the pods behind them. */
export const LAYOUT = {
  name: 'dagre',
  rankDir: 'LR',
  nodeSep: 24,
  rankSep: 45,
  edgeSep: 8,
  padding: 16,
  animate: false,
  fit: true,
} as const;
