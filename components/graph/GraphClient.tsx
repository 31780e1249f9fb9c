'use client';
// The cytoscape canvas is browser-only: loaded with next/dynamic ssr:false (allowed only in a client component).
import dynamic from 'next/dynamic';

export const MeshGraphCanvas = dynamic(() => import('./MeshGraphCanvas'), {
  ssr: false,
  loading: () => (
    <div className="mesh-graph-canvas loading" data-testid="mesh-graph-loading">
      Laying out the graph…
    </div>
  ),
});
