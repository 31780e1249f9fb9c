'use client';
// The Drift tab: meshscope's config for this pod against the pod's own Envoy config
// (GET /api/proxies/POD.NS/drift), drawn by the drift view (components/drift/DriftView.tsx: counts, rejected
// config, route changes, each differing resource with its paths and both sides). Refetched when the
// snapshot changes (meshscope's side follows it); a classified failure is shown with its status and stage.
import { useDrift } from '@/components/data/liveData';
import { DriftView } from '@/components/drift/DriftView';
import { LiveError } from './LiveTab';

export function DriftTab({ proxyId, version }: { proxyId: string; version: number }) {
  const q = useDrift(proxyId, version);
  if (q.isPending)
    return (
      <p className="muted" role="status" data-testid="drift-loading">
        Comparing with the pod&apos;s Envoy…
      </p>
    );
  if (q.error || !q.data) return <LiveError error={q.error} />;
  return <DriftView body={q.data} proxyId={proxyId} />;
}
