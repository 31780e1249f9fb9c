// Mesh config: the effective MeshConfig, where it came from, and the settings the translator reads.
import { MeshConfigView } from '@/components/mesh/MeshConfigView';
import type { MeshConfigResponse } from '@/server/api/contract';
import { meshConfigView } from '@/server/api/meshConfig';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { hiddenMeshConfig } from '@/server/api/visibility';
import { pageContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Mesh config · meshscope' };

export default async function MeshConfigPage() {
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const hidden = hiddenMeshConfig(page.ctx);
  if (hidden) return <section className="panel">{(hidden.body as { error: string }).error}</section>;
  return <MeshConfigView initial={meshConfigView(page.ctx).body as MeshConfigResponse} />;
}
