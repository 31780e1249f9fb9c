// Its own file so view/types.ts and view/gateway/types.ts both use it without importing each other.
import type { IstioConfig } from '../../model/mesh';
import type { MergedRouteOrigin } from './delegation';

/**
 * A VirtualService as bound to a proxy: names resolved and, for a root VirtualService, its delegates merged
 * in. `httpOrigins` (parallel to `spec.http`) says which rule each http route was as written: the root's
 * index and, for a merged delegate route, the delegate's. Absent when `spec.http` is as written (no merge).
 */
export type BoundVirtualService = IstioConfig<'VirtualService'> & { readonly httpOrigins?: readonly MergedRouteOrigin[] };
