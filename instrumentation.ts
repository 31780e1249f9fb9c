// Next.js calls register() once per server process, before the first request: start the runtime
// (sources, store, xDS) there without waiting for it. The edge build drops this branch.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getRuntime } = await import('./server/runtime');
  const { bindAddress } = await import('./server/api/runtimeConfig');
  const { linkToParent } = await import('./server/cli/childLink');
  const rt = getRuntime();
  // Under `meshscope serve`: report the bound addresses, and exit when that parent process dies.
  linkToParent(rt, bindAddress(rt.config));
}
