// The graph layout as a pure computation, run inside a Web Worker (layout.worker.ts) so the page stays
// responsive while a large graph is laid out: a headless cytoscape with the same layout options the canvas
// would use, nodes sized like the canvas draws them (label text measured, plus padding and border), and
// the resulting positions of the leaf nodes (compound nodes follow their children). The canvas then draws
// with a `preset` layout. No DOM: runs in a worker, in Node (tests) or on the main thread as a fallback.
import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import fcose from 'cytoscape-fcose';

cytoscape.use(dagre);
cytoscape.use(fcose);

export interface LayoutNode {
  id: string;
  parent?: string;
  label: string;
  /** px; the canvas stylesheet's font-size for this node. */
  fontSize: number;
  /** px of padding around the label on each side. */
  padding: number;
}

export interface LayoutEdge {
  id: string;
  source: string;
  target: string;
}

export interface LayoutRequest {
  seq: number;
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  /** cytoscape layout options (name, rankDir, spacing); `fit`/`animate` are ignored. */
  options: Record<string, unknown>;
}

export type Positions = Record<string, { x: number; y: number }>;

export interface LayoutResult {
  seq: number;
  positions: Positions;
  /** Time the layout took where it ran, ms. */
  ms: number;
  error?: string;
}

/** Width of a text in px at a font size. */
export type Measure = (text: string, fontSize: number) => number;

/** cytoscape's default label font; the canvas stylesheet does not change the family. */
const LABEL_FONT_FAMILY = 'Helvetica Neue, Helvetica, sans-serif';
const BORDER = 1.5;

/** Without a canvas (Node): an average glyph of 0.6 em. */
export const estimateMeasure: Measure = (text, fontSize) => text.length * fontSize * 0.6;

/** Measures with an OffscreenCanvas when there is one (browsers, workers included), else estimates. */
export function canvasMeasure(): Measure {
  const Offscreen = (globalThis as { OffscreenCanvas?: new (w: number, h: number) => { getContext(t: '2d'): unknown } }).OffscreenCanvas;
  const ctx = Offscreen
    ? (new Offscreen(1, 1).getContext('2d') as { font: string; measureText(t: string): { width: number } } | null)
    : null;
  if (!ctx) return estimateMeasure;
  return (text, fontSize) => {
    ctx.font = `${fontSize}px ${LABEL_FONT_FAMILY}`;
    return ctx.measureText(text).width;
  };
}

/** A node's outer size as the canvas draws it (`width: label`, padding, border). */
export function nodeSize(n: LayoutNode, measure: Measure): { w: number; h: number } {
  const lines = n.label.split('\n');
  const text = Math.max(0, ...lines.map((l) => measure(l, n.fontSize)));
  return { w: Math.ceil(text) + 2 * n.padding + 2 * BORDER, h: Math.ceil(lines.length * n.fontSize * 1.2) + 2 * n.padding + 2 * BORDER };
}

/**
 * dagre draws the clearest picture (left to right: callers → services → pods) but its crossing
 * minimisation grows fast with edges (measured in Node on this machine: a 71-node, 449-edge graph of one
 * expanded namespace took 3.5 s, the 1,000-node graph over a minute). Beyond DAGRE_MAX_WORK nodes + edges
 * the graph is laid out with fCoSE (cytoscape-fcose: spectral start + compound spring embedder), which
 * takes well under a second there.
 */
export const DAGRE_MAX_WORK = 200;

const FCOSE_LAYOUT = {
  name: 'fcose',
  quality: 'default',
  randomize: true,
  animate: false,
  fit: false,
  nodeDimensionsIncludeLabels: false,
  packComponents: true,
  nodeRepulsion: 9000,
  idealEdgeLength: 90,
  nestingFactor: 0.1,
  gravity: 0.25,
  tile: true,
} as const;

/** The layout for a graph: the caller's (dagre) while small, fCoSE beyond DAGRE_MAX_WORK. */
export function layoutOptionsFor(req: Pick<LayoutRequest, 'nodes' | 'edges' | 'options'>): Record<string, unknown> {
  if (req.options.name !== 'dagre' || req.nodes.length + req.edges.length <= DAGRE_MAX_WORK) return req.options;
  return { ...FCOSE_LAYOUT };
}

/** One edge per (source, target): parallel edges (subsets, rules) change nothing for the layout. */
export function layoutEdges(edges: readonly LayoutEdge[]): LayoutEdge[] {
  const seen = new Set<string>();
  return edges.filter((e) => {
    const k = `${e.source}\u0000${e.target}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Lays the graph out; positions of every node that has no children. Throws what the layout throws. */
export function computeLayout(req: LayoutRequest, measure: Measure = estimateMeasure): Positions {
  const parents = new Set(req.nodes.map((n) => n.parent).filter((p): p is string => p !== undefined));
  const ids = new Set(req.nodes.map((n) => n.id));
  const elements: cytoscape.ElementDefinition[] = [];
  for (const n of req.nodes) {
    const { w, h } = parents.has(n.id) ? { w: 1, h: 1 } : nodeSize(n, measure);
    elements.push({ group: 'nodes', data: { id: n.id, ...(n.parent && ids.has(n.parent) ? { parent: n.parent } : {}), w, h } });
  }
  const options = layoutOptionsFor(req);
  for (const e of options === req.options ? req.edges : layoutEdges(req.edges))
    if (ids.has(e.source) && ids.has(e.target)) elements.push({ group: 'edges', data: { id: e.id, source: e.source, target: e.target } });
  const cy = cytoscape({
    headless: true,
    styleEnabled: true,
    elements,
    style: [
      { selector: 'node', style: { width: 'data(w)', height: 'data(h)', shape: 'rectangle', padding: '0px' } },
      { selector: ':parent', style: { padding: '12px' } },
    ] as unknown as cytoscape.StylesheetJson,
  });
  try {
    cy.layout({ ...options, animate: false, fit: false } as unknown as cytoscape.LayoutOptions).run();
    const out: Positions = {};
    cy.nodes()
      .filter((n) => n.isChildless())
      .forEach((n) => {
        const p = n.position();
        out[n.id()] = { x: p.x, y: p.y };
      });
    return out;
  } finally {
    cy.destroy();
  }
}

/** Runs a request and wraps the outcome (the worker's reply). */
export function answer(req: LayoutRequest, measure: Measure): LayoutResult {
  const t0 = performance.now();
  try {
    return { seq: req.seq, positions: computeLayout(req, measure), ms: performance.now() - t0 };
  } catch (e) {
    return { seq: req.seq, positions: {}, ms: performance.now() - t0, error: e instanceof Error ? e.message : String(e) };
  }
}
