// Next.js calls register() once per server process, before the first request: start the runtime
// (sources, store, xDS) there without waiting for it. The edge build drops this branch.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startRuntime } = await import('./server/runtime');
  startRuntime();
}
