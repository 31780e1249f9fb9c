// /ztunnel: what istiod sends ztunnel (GET /api/ztunnel's JSON): workloads, services and policies as filterable tables.
import { ZtunnelView, type ZtunnelBody } from '@/components/ztunnel/ZtunnelView';
import { ztunnelView } from '@/server/api/ztunnel';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { scopeZtunnel } from '@/server/api/visibility';
import { pageContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'ztunnel · meshscope' };

export default async function ZtunnelPage() {
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const { ctx } = page;
  // Pods that have a proxy page (waypoints, sidecars): their names link there.
  const proxies = ctx.snapshot.proxies.filter((p) => !ctx.viewer || ctx.viewer.sees(p.namespace)).map((p) => p.id);
  return (
    <ZtunnelView
      body={scopeZtunnel(ctx, ztunnelView(ctx)).body as ZtunnelBody}
      ambient={ctx.snapshot.ambient !== undefined}
      proxies={proxies}
    />
  );
}
