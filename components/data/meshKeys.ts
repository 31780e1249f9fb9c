// Query keys for the overview graph and the ADS sync status. They sit under queryKeys.proxies(), so the
// invalidation every mesh event already does (react-query matches key prefixes) refreshes them too.
import { queryKeys } from './queryKeys';

export const meshKeys = {
  graph: (type = 'proxy', traffic = false) => [...queryKeys.proxies(), 'graph', type, traffic ? 'traffic' : 'config'] as const,
  syncz: () => [...queryKeys.proxies(), 'syncz'] as const,
  gatewayApi: () => [...queryKeys.proxies(), 'gateway-api'] as const,
};
