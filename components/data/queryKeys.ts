// Query key factories: the one place keys are spelled, so invalidation matches what hooks use.
export const queryKeys = {
  all: ['meshscope'] as const,
  proxies: () => [...queryKeys.all, 'proxies'] as const,
  proxy: (id: string) => [...queryKeys.all, 'proxy', id] as const,
  errors: () => [...queryKeys.all, 'errors'] as const,
};
