// /trace: a request from an ambient pod (or a sidecar) through ztunnel and, when bound, the destination's waypoint.
import { Suspense } from 'react';
import { AmbientTraceView, type TraceSource } from '@/components/trace/AmbientTraceView';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export default async function Trace() {
  const rt = await readyRuntime();
  const snapshot = rt.context().snapshot;
  const sources: TraceSource[] = [];
  for (const w of snapshot.ambient?.workloads.values() ?? [])
    if (w.ambient) sources.push({ id: `${w.name}.${w.namespace}`, kind: 'ambient' });
  for (const p of snapshot.proxies) if (p.type === 'sidecar') sources.push({ id: p.id, kind: 'sidecar' });
  return (
    <Suspense>
      <AmbientTraceView sources={sources} />
    </Suspense>
  );
}
