// Home: every proxy (id, type, namespace, labels, counts), the sources, and located input errors.
import { HomeView } from '@/components/home/HomeView';
import type { ErrorsResponse, ProxiesResponse } from '@/components/data/fetchers';
import { inputErrors } from '@/server/api/debug';
import { listProxies } from '@/server/api/proxies';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const rt = await readyRuntime();
  const ctx = rt.context();
  const proxies = listProxies(ctx).body as ProxiesResponse;
  const errors = inputErrors(ctx).body as ErrorsResponse;
  return <HomeView initialProxies={proxies} initialErrors={errors} />;
}
