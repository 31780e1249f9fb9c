// The what-if sandbox (issue #9 §3): a draft over the live mesh, evaluated by POST /api/sandbox/evaluate.
// All client-side: the draft comes from the URL (?d= compressed, or ?load= a live object). Under the ambient
// profile the page also hands over the ambient pods the viewer sees, as request-check sources.
import { Suspense } from 'react';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { SandboxView } from '@/components/sandbox/SandboxView';
import { pageContext } from '@/server/requestContext';

export const dynamic = 'force-dynamic';

export default async function SandboxPage() {
  const page = await pageContext(await headers());
  if (!page) redirect('/signin');
  const { ctx } = page;
  const sees = (ns: string) => !ctx.viewer || ctx.viewer.sees(ns);
  const ambientPods: string[] = [];
  for (const w of ctx.snapshot.ambient?.workloads.values() ?? [])
    if (w.ambient && sees(w.namespace)) ambientPods.push(`${w.name}.${w.namespace}`);
  ambientPods.sort();
  return (
    <Suspense>
      <SandboxView ambientPods={ambientPods} />
    </Suspense>
  );
}
