'use client';
// The one cytoscape adapter both graphs draw with (the mesh overview and a proxy's route graph): takes
// ready-made elements, a stylesheet for the theme's palette and a layout; reports node taps; puts classes
// on nodes (highlighted, selected) without a new layout; follows its container's size. Falls back to a
// grid when the layout throws, so a layout bug never leaves an empty canvas. Browser-only (load it with
// next/dynamic ssr:false). Its container exposes data-layout-done / data-node-count / data-edge-count, and
// `window[globalName]` the cytoscape instance, for end-to-end tests. With `offThread`, the layout runs in a
// Web Worker (layoutCore.ts) while the page stays responsive ("laying out…"), and the canvas draws the
// answer with a `preset` layout; data-layout-where / data-layout-ms say where it ran and how long it took.
import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import { useEffect, useRef, useState } from 'react';
import { LARGE_GRAPH, type Palette } from './elements';
import { layoutRequest, runInWorker, startLayoutWorker } from './layoutClient';
import type { Positions } from './layoutCore';
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
  /** Lay out in a Web Worker (falls back to the main thread where workers fail). */
  offThread?: boolean;
  /**
   * Newer data for the drawn elements (same ids: e.g. observed traffic on edge labels), applied to the
   * drawn graph without a new layout.
   */
  dataUpdates?: readonly CanvasElement[];
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
  // The colours are read at creation and re-applied on a theme switch (below): a new palette restyles the
  // drawn graph and never lays it out again.
  const paletteRef = useRef(palette);
  paletteRef.current = palette;
  const hasPalette = palette !== undefined;
  // Bumped at every finished layout (a new cytoscape instance), so classes are re-applied to it.
  const [layouts, setLayouts] = useState(0);
  // The elements last laid out: `done` is false from the very render that brings new elements (an effect's
  // setDone(false) would leave one committed frame claiming the old layout is the new one's).
  const [laidOut, setLaidOut] = useState<readonly CanvasElement[]>();
  const done = laidOut === elements;
  const [pending, setPending] = useState(false);
  const [took, setTook] = useState<{ where: 'worker' | 'main'; ms: number }>();
  const worker = useRef<Worker | undefined>(undefined);
  const seq = useRef(0);
  const offThread = props.offThread ?? false;

  useEffect(() => {
    const container = ref.current;
    const palette = paletteRef.current;
    if (!container || !hasPalette || !palette) return;
    setLaidOut(undefined);
    const w = window as unknown as Globals;
    let cy: cytoscape.Core | undefined;
    let ro: ResizeObserver | undefined;
    let cancelled = false;
    let waiting = false;
    const t0 = performance.now();
    const draw = (positions?: Positions, where: 'worker' | 'main' = 'main') => {
      const c = cytoscape({
        container,
        elements: elements.map((e) => ({ group: e.group, data: { ...e.data }, classes: e.classes })) as cytoscape.ElementDefinition[],
        style: style.current(palette) as unknown as cytoscape.StylesheetJson,
        wheelSensitivity: 0.3,
        minZoom,
        maxZoom: 3,
        // Large graphs: draw a bitmap while panning/zooming instead of every element each frame.
        ...(elements.length > LARGE_GRAPH ? { hideEdgesOnViewport: true, textureOnViewport: true } : {}),
      });
      cy = c;
      c.on('tap', 'node', (evt) => tap.current?.(String(evt.target.id()), evt.target.data() as Record<string, unknown>));
      const finished = () => {
        after.current?.(c);
        setTook({ where, ms: Math.round(performance.now() - t0) });
        setLaidOut(elements);
        setLayouts((n) => n + 1);
      };
      const padding = (layoutRef.current as { padding?: number }).padding ?? 16;
      const opts = positions ? { name: 'preset', positions, fit: true, padding, animate: false } : layoutRef.current;
      try {
        const l = c.layout(opts as unknown as cytoscape.LayoutOptions);
        l.one('layoutstop', finished);
        l.run();
      } catch (e) {
        console.error('meshscope: graph layout failed, using a grid', e);
        const grid = c.layout({ name: 'grid', fit: true, padding: 16 });
        grid.one('layoutstop', finished);
        grid.run();
      }
      cyRef.current = c;
      w[globalName] = c;
      ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => c.resize());
      ro?.observe(container);
    };
    const thread = offThread ? (worker.current ??= startLayoutWorker()) : undefined;
    if (thread) {
      waiting = true;
      setPending(true);
      const req = layoutRequest(++seq.current, elements, layoutRef.current);
      runInWorker(thread, req)
        .then((r) => {
          if (!cancelled) draw(r.positions, 'worker');
        })
        .catch(async (e) => {
          if (cancelled) return;
          console.error('meshscope: layout worker failed, laying out on the main thread', e);
          // The same computation (and the same choice of algorithm for large graphs), here.
          const core = await import('./layoutCore');
          if (cancelled) return;
          const r = core.answer(req, core.canvasMeasure());
          draw(r.error ? undefined : r.positions);
        })
        .finally(() => {
          waiting = false;
          if (!cancelled) setPending(false);
        });
    } else draw();
    return () => {
      cancelled = true;
      // A layout still running for elements that are gone: stop it rather than wait for it.
      if (waiting) {
        worker.current?.terminate();
        worker.current = undefined;
      }
      ro?.disconnect();
      if (cy && cyRef.current === cy) cyRef.current = null;
      if (cy && w[globalName] === cy) delete w[globalName];
      cy?.destroy();
    };
  }, [elements, hasPalette, minZoom, globalName, offThread]);

  useEffect(() => {
    if (palette) cyRef.current?.style(style.current(palette) as unknown as cytoscape.StylesheetJson);
  }, [palette]);

  useEffect(
    () => () => {
      worker.current?.terminate();
      worker.current = undefined;
    },
    [],
  );

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || layouts === 0) return;
    for (const [cls, ids] of Object.entries(classed ?? {})) {
      cy.nodes(`.${cls}`).removeClass(cls);
      for (const id of ids) cy.getElementById(id).addClass(cls);
    }
  }, [classed, layouts]);

  const updates = props.dataUpdates;
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || layouts === 0 || !updates) return;
    cy.batch(() => {
      for (const e of updates) {
        const d = e.data as { id: string };
        const el = cy.getElementById(d.id);
        if (el.empty()) continue;
        el.data({ ...d });
        if (e.classes !== undefined) el.classes(e.classes);
      }
    });
  }, [updates, layouts]);

  const nodes = elements.filter((e) => e.group === 'nodes').length;
  const canvas = (
    <div
      ref={ref}
      className={className}
      data-testid={testId}
      data-layout-done={done ? 'true' : 'false'}
      data-layout-where={took?.where}
      data-layout-ms={took?.ms}
      data-node-count={nodes}
      data-edge-count={elements.length - nodes}
      style={{ height }}
      role="img"
      aria-label={ariaLabel}
    />
  );
  if (!offThread) return canvas;
  return (
    <div className="graph-canvas-frame">
      {canvas}
      {pending ? (
        <div className="graph-laying-out" data-testid="graph-laying-out" role="status">
          Laying out {nodes} nodes…
        </div>
      ) : null}
    </div>
  );
}
