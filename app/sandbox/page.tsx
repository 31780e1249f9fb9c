// The what-if sandbox (issue #9 §3): a draft over the live mesh, evaluated by POST /api/sandbox/evaluate.
// All client-side: the draft comes from the URL (?d= compressed, or ?load= a live object).
import { Suspense } from 'react';
import { SandboxView } from '@/components/sandbox/SandboxView';

export const dynamic = 'force-dynamic';

export default function SandboxPage() {
  return (
    <Suspense>
      <SandboxView />
    </Suspense>
  );
}
