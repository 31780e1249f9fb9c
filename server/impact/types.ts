// What a change means for the proxies, as the `proxies` server-sent event carries it (api/events.ts
// streams it; the UI invalidates its queries by it). Part of the API contract (api/contract.ts).
import type { ResourceKind } from './affected';

export interface MeshEvent {
  /** Snapshot version after the change. */
  version: number;
  /**
   * Proxy ids whose Envoy config may have changed (added, removed or different): computed from the changed
   * objects without translating (impact/affected.ts), so it may name proxies that did not change, but
   * never misses one. Empty when `all` is set on a large mesh (said compactly instead of listing them).
   */
  proxies: string[];
  /** Every proxy may have changed (then `proxies` lists them only on small meshes). */
  all?: boolean;
  /** The resource types that may have changed; absent = any. */
  types?: ResourceKind[];
  /** True when only endpoints changed. */
  endpointsOnly: boolean;
  /** Input errors in the new snapshot. */
  errors: number;
}
