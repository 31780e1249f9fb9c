'use client';
// The one cytoscape adapter both graphs draw with (the mesh overview and a proxy's route graph): takes
// ready-made elements, a stylesheet for the theme's palette and a layout; reports node taps; puts classes
// on nodes (highlighted, selected) without a new layout; follows its container's size. Falls back to a
// grid when the layout throws, so a layout bug never leaves an empty canvas. Browser-only (load it with
// next/dynamic ssr:false). Its container exposes data-layout-done / data-node-count / data-edge-count, and
// `window[globalName]` the cytoscape instance, for end-to-end tests.
import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import { useEffect, useRef, useState } from 'react';
import type { Palette } from './elements';
import { usePalette } from './usePalette';

cytoscape.use(dagre);

/** A cytoscape element definition: `data` carries `id` (and `source`/`target` for edges). */
export interface CanvasElement {
  group: 'nodes' | 'edges';
  data: object;
  classes?: string;
}

export interface CytoscapeCanvasProps {
  elements: readonly CanvasElement[];
  stylesheet: (palette: Palette) => unknown[];
  layout: Record<string, unknown>;
  /** A node was tapped: its id and data. */
  onNodeTap?: (id: string, data: Record<string, unknown>) => void;
  /** Class → node ids carrying it (e.g. `changed`, `selected`); re-applied after every layout. */
  classed?: Readonly<Record<string, readonly string[]>>;
  /** After each finished layout (e.g. zoom to a readable level). */
  afterLayout?: (cy: cytoscape.Core) => void;
  minZoom?: number;
  /** CSS height of the canvas. */
  height: string | number;
  className: string;
  testId: string;
  ariaLabel: string;
  /** `window[globalName]` holds the instance while mounted (end-to-end tests click on node positions). */
  globalName: string;
}

type Globals = Record<string, cytoscape.Core | undefined>;

export function CytoscapeCanvas(props: CytoscapeCanvasProps) {
  const { elements, stylesheet, layout, classed, minZoom = 0.1, height, className, testId, ariaLabel, globalName } = props;
  const ref = useRef<HTMLDivElement>(null);
  const cyRef = useRef<cytoscape.Core | null>(null);
  // Latest callbacks without re-creating the graph when a parent re-renders.
  const tap = useRef(props.onNodeTap);
  tap.current = props.onNodeTap;
  const after = useRef(props.afterLayout);
  after.current = props.afterLayout;
  const style = useRef(stylesheet);
  style.current = stylesheet;
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const palette = usePalette();
  // Bumped at every finished layout (a new cytoscape instance), so classes are re-applied to it.
  const [layouts, setLayouts] = useState(0);
  const [done, setDone] = useState(false);

  useEffect(() => {
    const container = ref.current;
    if (!container || !palette) return;
    setDone(false);
    const cy = cytoscape({
      container,
      elements: elements.map((e) => ({ group: e.group, data: { ...e.data }, classes: e.classes })) as cytoscape.ElementDefinition[],
      style: style.current(palette) as unknown as cytoscape.StylesheetJson,
      wheelSensitivity: 0.3,
      minZoom,
      maxZoom: 3,
    });
    cy.on('tap', 'node', (evt) => tap.current?.(String(evt.target.id()), evt.target.data() as Record<string, unknown>));
    const finished = () => {
      after.current?.(cy);
      setDone(true);
      setLayouts((n) => n + 1);
    };
    try {
      const l = cy.layout(layoutRef.current as unknown as cytoscape.LayoutOptions);
      l.one('layoutstop', finished);
      l.run();
    } catch (e) {
      console.error('meshscope: graph layout failed, using a grid', e);
      const grid = cy.layout({ name: 'grid', fit: true, padding: 16 });
      grid.one('layoutstop', finished);
      grid.run();
    }
    cyRef.current = cy;
    const w = window as unknown as Globals;
    w[globalName] = cy;
    const ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => cy.resize());
    ro?.observe(container);
    return () => {
      ro?.disconnect();
      cyRef.current = null;
      if (w[globalName] === cy) delete w[globalName];
      cy.destroy();
    };
  }, [elements, palette, minZoom, globalName]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || layouts === 0) return;
    for (const [cls, ids] of Object.entries(classed ?? {})) {
      cy.nodes(`.${cls}`).removeClass(cls);
      for (const id of ids) cy.getElementById(id).addClass(cls);
    }
  }, [classed, layouts]);

  const nodes = elements.filter((e) => e.group === 'nodes').length;
  return (
    <div
      ref={ref}
      className={className}
      data-testid={testId}
      data-layout-done={done ? 'true' : 'false'}
      data-node-count={nodes}
      data-edge-count={elements.length - nodes}
      style={{ height }}
      role="img"
      aria-label={ariaLabel}
    />
  );
}
