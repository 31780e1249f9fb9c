// /ztunnel: what istiod sends ztunnel (GET /api/ztunnel's JSON): workloads, services and policies as filterable tables.
import { ZtunnelView, type ZtunnelBody } from '@/components/ztunnel/ZtunnelView';
import { ztunnelView } from '@/server/api/ztunnel';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'ztunnel · meshscope' };

export default async function ZtunnelPage() {
  const rt = await readyRuntime();
  const ctx = rt.context();
  // Pods that have a proxy page (waypoints, sidecars): their names link there.
  const proxies = ctx.snapshot.proxies.map((p) => p.id);
  return <ZtunnelView body={ztunnelView(ctx).body as ZtunnelBody} ambient={ctx.snapshot.ambient !== undefined} proxies={proxies} />;
}
