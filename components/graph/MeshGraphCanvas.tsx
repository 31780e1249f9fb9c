'use client';
// The overview's graph: mesh elements drawn by the shared cytoscape adapter (CytoscapeCanvas) with the
// mesh stylesheet and layout; reports node taps; marks recently changed proxies without a new layout.
// Loaded only in the browser (see GraphClient). `window.__cy` holds the instance for end-to-end tests.
// Laid out in a Web Worker (layoutCore.ts), so a large mesh never freezes the page.
import { useMemo } from 'react';
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
  const nodes = elements.filter((e) => e.group === 'nodes').length;
  return (
    <CytoscapeCanvas
      elements={elements}
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
