// One proxy: listeners, route configs, clusters, endpoints and the raw config_dump.
import Link from 'next/link';
import { ProxyView } from '@/components/proxy/ProxyView';
import { proxyDetail, type ProxyDetail } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export default async function ProxyPage({ params }: { params: Promise<{ id: string }> }) {
  const id = decodeURIComponent((await params).id);
  const rt = await readyRuntime();
  const res = proxyDetail(rt.context(), id);
  if (res.status !== 200) {
    return (
      <section className="panel" data-testid="proxy-not-found">
        <h1>Proxy not found</h1>
        <p>
          No proxy <code>{id}</code> in snapshot v{rt.snapshot().version}. <Link href="/">Back to the list</Link>.
        </p>
      </section>
    );
  }
  return <ProxyView id={id} initial={res.body as ProxyDetail} />;
}
