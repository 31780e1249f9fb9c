'use client';
// The Drift tab: meshscope's config for this pod against the pod's own Envoy config
// (GET /api/proxies/POD.NS/drift), drawn by the drift view (components/drift/DriftView.tsx: counts, rejected
// config, route changes, each differing resource with its paths and both sides). Refetched when the
// snapshot changes (meshscope's side follows it); a classified failure is shown with its status and stage.
// "Trace on both" simulates a request on meshscope's config and on the pod's (POST /api/simulate config).
import { useDrift } from '@/components/data/liveData';
import { DriftView } from '@/components/drift/DriftView';
import type { ProxyKind } from '@/server/model/proxyKinds';
import type { SimMode } from '@/server/simulate/types';
import { LiveError } from './LiveTab';

/** How the pod receives the traced request: a gateway (router, waypoint) as a gateway, a sidecar outbound. */
const traceMode = (kind: ProxyKind | undefined): SimMode => (kind === 'router' || kind === 'waypoint' ? 'gateway' : 'outbound');

export function DriftTab({ proxyId, version, kind }: { proxyId: string; version: number; kind?: ProxyKind }) {
  const q = useDrift(proxyId, version);
  if (q.isPending)
    return (
      <p className="muted" role="status" data-testid="drift-loading">
        Comparing with the pod&apos;s Envoy…
      </p>
    );
  if (q.error || !q.data) return <LiveError error={q.error} />;
  return <DriftView body={q.data} proxyId={proxyId} trace={{ proxyId, mode: traceMode(kind) }} />;
}
