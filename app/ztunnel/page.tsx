// /ztunnel: what istiod sends ztunnel (GET /api/ztunnel's JSON): workloads, services and policies as filterable tables.
import { ZtunnelView, type ZtunnelBody } from '@/components/ztunnel/ZtunnelView';
import { ztunnelView } from '@/server/api/ztunnel';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { scopeZtunnel } from '@/server/api/visibility';
import { pageContext } from '@/server/requestContext';
import { addressText } from '@/server/model/ambient';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'ztunnel · meshscope' };

export default async function ZtunnelPage() {
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const { ctx } = page;
  // Pods that have a proxy page (waypoints, sidecars): their names link there.
  const proxies = ctx.snapshot.proxies.filter((p) => !ctx.viewer || ctx.viewer.sees(p.namespace)).map((p) => p.id);
  // Each waypoint's address (as Workloads and Services carry it) → its proxies: the waypoint column links to them.
  const waypointProxies: Record<string, string[]> = {};
  for (const w of ctx.snapshot.ambient?.waypoints.values() ?? [])
    if (!ctx.viewer || ctx.viewer.sees(w.namespace)) waypointProxies[addressText(w.address)] = [...w.proxies];
  return (
    <ZtunnelView
      body={scopeZtunnel(ctx, ztunnelView(ctx)).body as ZtunnelBody}
      ambient={ctx.snapshot.ambient !== undefined}
      proxies={proxies}
      waypointProxies={waypointProxies}
    />
  );
}
