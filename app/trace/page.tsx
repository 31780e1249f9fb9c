// /trace: a request from an ambient pod (or a sidecar) through ztunnel and, when bound, the destination's waypoint.
import { Suspense } from 'react';
import { AmbientTraceView, type TraceSource } from '@/components/trace/AmbientTraceView';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { pageContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export default async function Trace() {
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const { ctx } = page;
  const snapshot = ctx.snapshot;
  const sees = (ns: string) => !ctx.viewer || ctx.viewer.sees(ns);
  const sources: TraceSource[] = [];
  for (const w of snapshot.ambient?.workloads.values() ?? [])
    if (w.ambient && sees(w.namespace)) sources.push({ id: `${w.name}.${w.namespace}`, kind: 'ambient' });
  for (const p of snapshot.proxies) if (p.type === 'sidecar' && sees(p.namespace)) sources.push({ id: p.id, kind: 'sidecar' });
  return (
    <Suspense>
      <AmbientTraceView sources={sources} />
    </Suspense>
  );
}
