'use client';
// Thin cytoscape renderer: takes ready-made elements, stylesheet and layout; reports node taps.
// Loaded only in the browser (see GraphClient). Exposes `data-layout-done`/`data-node-count` on its
// container and `window.__cy` for end-to-end tests.
import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import { useEffect, useRef, useState } from 'react';
import { LAYOUT, stylesheet, type GraphElement, type NodeData } from './elements';
import { usePalette } from './usePalette';

cytoscape.use(dagre);

export interface MeshGraphCanvasProps {
  elements: GraphElement[];
  onNodeTap?: (node: NodeData) => void;
  /** Node ids to mark `changed` (recently changed proxies); applied without a new layout. */
  highlight?: readonly string[];
  /** CSS height of the canvas. */
  height?: string;
}

export default function MeshGraphCanvas({ elements, onNodeTap, highlight, height = 'max(520px, 72vh)' }: MeshGraphCanvasProps) {
  const ref = useRef<HTMLDivElement>(null);
  const cyRef = useRef<cytoscape.Core | null>(null);
  const tap = useRef(onNodeTap);
  tap.current = onNodeTap;
  const palette = usePalette();
  // Bumped at every finished layout (a new cytoscape instance), so highlights are re-applied to it.
  const [layouts, setLayouts] = useState(0);
  const [done, setDone] = useState(false);

  useEffect(() => {
    const container = ref.current;
    if (!container || !palette) return;
    setDone(false);
    const cy = cytoscape({
      container,
      elements: elements.map((e) => ({ group: e.group, data: { ...e.data }, classes: e.classes })),
      style: stylesheet(palette) as unknown as cytoscape.StylesheetJson,
      wheelSensitivity: 0.3,
      minZoom: 0.1,
      maxZoom: 3,
    });
    cy.on('tap', 'node', (evt) => tap.current?.(evt.target.data() as NodeData));
    try {
      const layout = cy.layout(LAYOUT as unknown as cytoscape.LayoutOptions);
      layout.one('layoutstop', () => {
        setDone(true);
        setLayouts((n) => n + 1);
      });
      layout.run();
    } catch (e) {
      // A layout failure must not leave an empty canvas: fall back to a grid and say so.
      console.error('meshscope: dagre layout failed, using a grid', e);
      const grid = cy.layout({ name: 'grid', fit: true, padding: 16 });
      grid.one('layoutstop', () => {
        setDone(true);
        setLayouts((n) => n + 1);
      });
      grid.run();
    }
    (window as unknown as { __cy?: cytoscape.Core }).__cy = cy;
    cyRef.current = cy;
    return () => {
      cyRef.current = null;
      cy.destroy();
      const w = window as unknown as { __cy?: cytoscape.Core };
      if (w.__cy === cy) delete w.__cy;
    };
  }, [elements, palette]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || layouts === 0) return;
    cy.nodes('.changed').removeClass('changed');
    for (const id of highlight ?? []) cy.getElementById(id).addClass('changed');
  }, [highlight, layouts]);

  return (
    <div
      ref={ref}
      className="mesh-graph-canvas"
      data-testid="mesh-graph"
      data-layout-done={done ? 'true' : 'false'}
      data-node-count={elements.filter((e) => e.group === 'nodes').length}
      data-edge-count={elements.filter((e) => e.group === 'edges').length}
      style={{ height }}
      role="img"
      aria-label={`Mesh graph with ${elements.filter((e) => e.group === 'nodes').length} nodes`}
    />
  );
}
