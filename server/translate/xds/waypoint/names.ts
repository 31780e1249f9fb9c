// Names of a waypoint's resources (pilot/pkg/networking/core/waypoint.go constants; model.BuildSubsetKey with
// TrafficDirectionInboundVIP).

/** ConnectTerminate: the HBONE listener on 15008 that ends ztunnel's CONNECT tunnel. */
export const CONNECT_TERMINATE = 'connect_terminate';
/** MainInternalName: the internal listener (and cluster) that dispatches by destination IP and port. */
export const MAIN_INTERNAL = 'main_internal';
/** ConnectOriginate, the HBONE port and the original_dst metadata key are shared with sidecars and gateways. */
export { CONNECT_ORIGINATE, HBONE_PORT, ORIGINAL_DST_METADATA } from '../hbone/connectOriginate';
/** EncapClusterName: the cluster in front of connect_originate. */
export const ENCAP = 'encap';

/** BuildSubsetKey(TrafficDirectionInboundVIP, subset, host, port): `inbound-vip|PORT|SUBSET|HOST`, subset `http[/s]` or `tcp[/s]`. */
export const inboundVipCluster = (subset: string, hostname: string, port: number): string => `inbound-vip|${port}|${subset}|${hostname}`;

/** The parts of an `inbound-vip|…` name, or undefined for another name. */
export function parseInboundVip(name: string): { port: number; protocol: 'http' | 'tcp'; subset: string; hostname: string } | undefined {
  const parts = name.split('|');
  if (parts.length !== 4 || parts[0] !== 'inbound-vip') return undefined;
  const [proto, subset = ''] = (parts[2] ?? '').split('/', 2) as [string, string?];
  if (proto !== 'http' && proto !== 'tcp') return undefined;
  return { port: Number(parts[1]), protocol: proto, subset, hostname: parts[3] ?? '' };
}
