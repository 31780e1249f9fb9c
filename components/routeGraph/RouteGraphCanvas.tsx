'use client';
// The route graph: its elements drawn left to right (dagre) by the shared cytoscape adapter
// (components/graph/CytoscapeCanvas), with this stylesheet; reports node taps and marks the selected node
// without re-laying out. Browser-only (loaded by next/dynamic with ssr:false in RouteGraphView).
// `window.__routeCy` holds the instance for e2e tests.
import type cytoscape from 'cytoscape';
import { useMemo } from 'react';
import { CytoscapeCanvas } from '@/components/graph/CytoscapeCanvas';
import type { Palette } from '@/components/graph/elements';
import type { ElementDef } from './model/elements';

const KIND_SHAPE: Record<string, string> = {
  listener: 'round-rectangle',
  routeConfig: 'rectangle',
  virtualHost: 'round-rectangle',
  route: 'round-rectangle',
  cluster: 'barrel',
  endpoint: 'ellipse',
  more: 'ellipse',
};

function stylesheet(p: Palette): unknown[] {
  return [
    {
      selector: 'node',
      style: {
        label: 'data(label)',
        'text-wrap': 'wrap',
        'text-max-width': (e: cytoscape.NodeSingular) => `${Number(e.data('w')) - 8}px`,
        'text-valign': 'center',
        'font-size': 10,
        'font-family': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        color: p.fg,
        width: 'data(w)',
        height: 'data(h)',
        'background-color': p.panel,
        'border-width': 1,
        'border-color': p.border,
        shape: (e: cytoscape.NodeSingular) => KIND_SHAPE[String(e.data('kind'))] ?? 'round-rectangle',
      },
    },
    { selector: 'node.listener', style: { 'border-color': p.accent, 'border-width': 2 } },
    { selector: 'node.routeConfig', style: { 'font-weight': 'bold' } },
    { selector: 'node.endpoint, node.more', style: { 'font-size': 9, color: p.muted } },
    { selector: 'node.shadowed', style: { 'border-style': 'dashed', 'border-width': 2, 'border-color': p.warn, color: p.muted } },
    { selector: 'node.missing', style: { 'border-style': 'dotted', 'border-color': p.error, color: p.muted } },
    { selector: 'node.rejected', style: { 'border-color': p.error, 'border-width': 2 } },
    { selector: 'node.on-path', style: { 'border-color': p.ok, 'border-width': 3, 'background-color': p.bg } },
    { selector: 'node.selected', style: { 'overlay-color': p.accent, 'overlay-opacity': 0.18, 'overlay-padding': 5 } },
    {
      selector: 'edge',
      style: {
        width: 'data(width)',
        'line-color': p.border,
        'target-arrow-color': p.border,
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.8,
        'curve-style': 'bezier',
        label: 'data(label)',
        'font-size': 9,
        color: p.muted,
        'text-background-color': p.bg,
        'text-background-opacity': 0.85,
        'text-background-padding': '1px',
      },
    },
    {
      selector: 'edge.weighted',
      style: { 'line-color': p.accent, 'target-arrow-color': p.accent, color: p.accent, 'font-weight': 'bold', 'font-size': 10 },
    },
    { selector: 'edge.rds, edge.inline, edge.tcp', style: { 'font-size': 8 } },
    { selector: 'edge.to-shadowed', style: { 'line-style': 'dashed' } },
    { selector: 'edge.on-path', style: { 'line-color': p.ok, 'target-arrow-color': p.ok } },
    // Changed by an EnvoyFilter patch.
    { selector: 'node.patched', style: { 'border-style': 'double', 'border-width': 5, 'border-color': p.fg } },
    // Sandbox: what the draft changes.
    { selector: 'node.diff-added', style: { 'border-color': p.ok, 'border-width': 3 } },
    { selector: 'node.diff-changed', style: { 'border-color': p.warn, 'border-width': 3 } },
    { selector: 'node.diff-removed', style: { 'border-color': p.error, 'border-style': 'dashed', 'border-width': 2, color: p.muted } },
    { selector: 'edge.diff-added', style: { 'line-color': p.ok, 'target-arrow-color': p.ok, color: p.ok } },
    { selector: 'edge.diff-changed', style: { 'line-color': p.warn, 'target-arrow-color': p.warn, color: p.warn, 'font-weight': 'bold' } },
    {
      selector: 'edge.diff-removed',
      style: { 'line-color': p.error, 'target-arrow-color': p.error, 'line-style': 'dashed', color: p.error },
    },
  ];
}

const LAYOUT = { name: 'dagre', rankDir: 'LR', nodeSep: 10, rankSep: 60, edgeSep: 8, fit: true, padding: 16, animate: false };
/** Below this zoom labels are unreadable: zoom to it and show the graph's left (listener) end instead. */
const MIN_READABLE_ZOOM = 0.62;

function readableView(cy: cytoscape.Core): void {
  if (cy.zoom() >= MIN_READABLE_ZOOM) return;
  const bb = cy.elements().boundingBox();
  cy.zoom(MIN_READABLE_ZOOM);
  const h = cy.height();
  const top = h / 2 - ((bb.y1 + bb.y2) / 2) * MIN_READABLE_ZOOM;
  // Tall graphs: start at the top rather than the middle.
  const y = bb.h * MIN_READABLE_ZOOM > h ? 16 - bb.y1 * MIN_READABLE_ZOOM : top;
  cy.pan({ x: 16 - bb.x1 * MIN_READABLE_ZOOM, y });
}

export interface RouteGraphCanvasProps {
  elements: ElementDef[];
  selected?: string;
  onSelect?: (id: string) => void;
  height?: number;
}

export default function RouteGraphCanvas({ elements, selected, onSelect, height = 560 }: RouteGraphCanvasProps) {
  // dagre stacks siblings bottom-up in insertion order: reversed, route #0 ends up on top.
  const ordered = useMemo(
    () => [...elements.filter((e) => e.group === 'nodes').reverse(), ...elements.filter((e) => e.group === 'edges').reverse()],
    [elements],
  );
  const classed = useMemo(() => ({ selected: selected ? [selected] : [] }), [selected]);
  const nodes = elements.filter((e) => e.group === 'nodes').length;
  return (
    <CytoscapeCanvas
      elements={ordered}
      stylesheet={stylesheet}
      layout={LAYOUT}
      onNodeTap={onSelect ? (id) => onSelect(id) : undefined}
      classed={classed}
      afterLayout={readableView}
      minZoom={0.05}
      height={height}
      className="route-graph-canvas"
      testId="route-graph-canvas"
      ariaLabel={`Route graph with ${nodes} nodes; use the node list to select one`}
      globalName="__routeCy"
    />
  );
}
