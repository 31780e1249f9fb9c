// Mesh config: the effective MeshConfig, where it came from, and the settings the translator reads.
import { MeshConfigView } from '@/components/mesh/MeshConfigView';
import type { MeshConfigResponse } from '@/server/api/contract';
import { meshConfigView } from '@/server/api/meshConfig';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Mesh config · meshscope' };

export default async function MeshConfigPage() {
  const rt = await readyRuntime();
  return <MeshConfigView initial={meshConfigView(rt.context()).body as MeshConfigResponse} />;
}
