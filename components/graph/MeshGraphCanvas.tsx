'use client';
// The overview's graph: mesh elements drawn by the shared cytoscape adapter (CytoscapeCanvas) with the
// mesh stylesheet and layout; reports node taps; marks recently changed proxies without a new layout.
// Loaded only in the browser (see GraphClient). `window.__cy` holds the instance for end-to-end tests.
// Laid out in a Web Worker (layoutCore.ts), so a large mesh never freezes the page.
import { useMemo, useRef } from 'react';
import { CytoscapeCanvas } from './CytoscapeCanvas';
import { LARGE_GRAPH, LARGE_GRAPH_STYLE, LAYOUT, type Palette, stylesheet, type GraphElement, type NodeData } from './elements';

const largeStylesheet = (p: Palette) => [...stylesheet(p), ...LARGE_GRAPH_STYLE];

export interface MeshGraphCanvasProps {
  elements: GraphElement[];
  onNodeTap?: (node: NodeData) => void;
  /** Node ids to mark `changed` (recently changed proxies); applied without a new layout. */
  highlight?: readonly string[];
  /** CSS height of the canvas. */
  height?: string;
}

export default function MeshGraphCanvas({ elements, onNodeTap, highlight, height = 'max(520px, 72vh)' }: MeshGraphCanvasProps) {
  const classed = useMemo(() => ({ changed: highlight ?? [] }), [highlight]);
  // Same nodes (and node labels: they size the nodes) and the same edges as drawn — only edge labels, widths
  // or classes differ, e.g. observed traffic refreshed, a rule's subset edited: keep the layout and update
  // the drawn edges instead.
  const drawn = useRef<{ key: string; elements: GraphElement[] }>(undefined);
  const key = useMemo(
    () => elements.map((e) => (e.group === 'nodes' ? `${e.data.id}\u0001${e.data.label}` : e.data.id)).join('\u0000'),
    [elements],
  );
  if (!drawn.current || drawn.current.key !== key) drawn.current = { key, elements };
  const laidOut = drawn.current.elements;
  const edgeUpdates = useMemo(() => (laidOut === elements ? undefined : elements.filter((e) => e.group === 'edges')), [laidOut, elements]);
  const nodes = elements.filter((e) => e.group === 'nodes').length;
  return (
    <CytoscapeCanvas
      elements={laidOut}
      {...(edgeUpdates ? { dataUpdates: edgeUpdates } : {})}
      stylesheet={elements.length > LARGE_GRAPH ? largeStylesheet : stylesheet}
      layout={LAYOUT}
      onNodeTap={onNodeTap ? (_id, data) => onNodeTap(data as unknown as NodeData) : undefined}
      classed={classed}
      height={height}
      className="mesh-graph-canvas"
      testId="mesh-graph"
      ariaLabel={`Mesh graph with ${nodes} nodes`}
      globalName="__cy"
      offThread
    />
  );
}
