// /demo: the live traffic-shifting demo on the demo data plane (server/demo).
import { DemoView } from '@/components/demo/DemoView';
import { readyRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

export default async function Demo() {
  const rt = await readyRuntime();
  const ctx = rt.applyContext();
  // The embedded demo mesh is in memory only: its page gets the apply token, so the demo works with no
  // setup. For files (serve --config … --demo-traffic) the user types the token serve printed.
  return <DemoView {...(ctx.applier.mode === 'demo' && ctx.token ? { initialToken: ctx.token } : {})} />;
}
