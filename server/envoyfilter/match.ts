// The matching rules of pilot/pkg/networking/core/envoyfilter (listener_patch.go listenerMatch, filterChainMatch,
// listenerFilterMatch, networkFilterMatch, httpFilterMatch; rc_patch.go routeConfigurationMatch, virtualHostMatch,
// routeMatch; cluster_patch.go clusterMatch) on canonical proto3 JSON.
import type { EnvoyFilterPatchContext } from '../model/istio';
import type { Json } from './merge';
import type { PatchWrapper } from './types';

const VIRTUAL = new Set(['virtualInbound', 'virtualOutbound']);
const asObj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const u32 = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : undefined);

/** commonConditionMatch. */
export const contextMatch = (ctx: EnvoyFilterPatchContext, p: PatchWrapper): boolean => p.context === 'ANY' || p.context === ctx;

export function listenerMatch(l: Json, p: PatchWrapper): boolean {
  const m = p.match.listener;
  if (!m) return true;
  if (m.name && m.name !== l.name) return false;
  if (p.applyTo !== 'LISTENER' && VIRTUAL.has(String(l.name))) return true;
  if (m.portNumber) {
    const port = asObj(asObj(l.address).socketAddress).portValue;
    if (port !== m.portNumber) return false;
  }
  return true;
}

export function filterChainMatch(l: Json, fc: Json, p: PatchWrapper): boolean {
  const lm = p.match.listener;
  if (!lm) return true;
  const fcm = fc.filterChainMatch === undefined ? undefined : asObj(fc.filterChainMatch);
  if (VIRTUAL.has(String(l.name)) && (lm.portNumber ?? 0) > 0 && u32(fcm?.destinationPort) !== lm.portNumber) return false;
  const m = lm.filterChain;
  if (!m) return true;
  if (m.name && m.name !== (fc.name ?? '')) return false;
  if (m.sni) {
    const names = (fcm?.serverNames as string[] | undefined) ?? [];
    if (!names.includes(m.sni)) return false;
  }
  if (m.transportProtocol && fcm?.transportProtocol !== m.transportProtocol) return false;
  if (m.applicationProtocols) {
    if (!fcm) return false;
    const have = (fcm.applicationProtocols as string[] | undefined) ?? [];
    for (const ap of m.applicationProtocols.split(',')) if (!have.includes(ap)) return false;
  }
  if ((m.destinationPort ?? 0) > 0 && u32(fcm?.destinationPort) !== m.destinationPort) return false;
  return true;
}

export const hasListenerFilterMatch = (p: PatchWrapper): boolean => !!p.match.listener?.listenerFilter;
export const listenerFilterMatch = (f: Json, p: PatchWrapper): boolean =>
  !hasListenerFilterMatch(p) || p.match.listener?.listenerFilter === f.name;
export const hasNetworkFilterMatch = (p: PatchWrapper): boolean => p.match.listener?.filterChain?.filter !== undefined;
export const networkFilterMatch = (f: Json, p: PatchWrapper): boolean =>
  !hasNetworkFilterMatch(p) || (p.match.listener?.filterChain?.filter?.name ?? '') === f.name;
export const hasHttpFilterMatch = (p: PatchWrapper): boolean =>
  hasNetworkFilterMatch(p) && p.match.listener?.filterChain?.filter?.subFilter !== undefined;
export const httpFilterMatch = (f: Json, p: PatchWrapper): boolean =>
  !hasHttpFilterMatch(p) || (p.match.listener?.filterChain?.filter?.subFilter?.name ?? '') === f.name;

/** model.ParseGatewayRDSRouteName: `http.8080` / `https.443.portname.gwname.ns`. */
function parseGatewayRdsName(name: string): { port: number; portName: string; gateway: string } {
  const parts = name.split('.');
  if (name.startsWith('http.')) return { port: Number(parts[1]) || 0, portName: '', gateway: '' };
  if (name.startsWith('https.') && parts.length === 5) {
    return { port: Number(parts[1]) || 0, portName: parts[2] ?? '', gateway: `${parts[4]}/${parts[3]}` };
  }
  return { port: 0, portName: '', gateway: '' };
}

/** getListenerPortFromName: `inbound|9080||` → 9080; `9080` → 9080; anything else 0. */
function listenerPortFromName(name: string): number {
  if (name.startsWith('inbound')) return Number(name.split('|')[1]) || 0;
  return /^\d+$/.test(name) ? Number(name) : 0;
}

/** routeConfigurationMatch; `portMap` maps a gateway server port to the service ports targeting it. */
export function routeConfigurationMatch(
  ctx: EnvoyFilterPatchContext,
  rc: Json,
  p: PatchWrapper,
  portMap: ReadonlyMap<number, ReadonlySet<number>>,
): boolean {
  const m = p.match.routeConfiguration;
  if (!m) return true;
  const name = String(rc.name ?? '');
  if (m.name && m.name !== name) return false;
  if (ctx !== 'GATEWAY') return !(m.portNumber && m.portNumber !== listenerPortFromName(name));
  const r = parseGatewayRdsName(name);
  if (m.portName && m.portName !== r.portName) return false;
  if (m.gateway && m.gateway !== r.gateway) return false;
  if (m.portNumber) {
    const sp = portMap.get(r.port);
    if (sp ? !sp.has(m.portNumber) : r.port !== m.portNumber) return false;
  }
  return true;
}

export function virtualHostMatch(vh: Json | undefined, p: PatchWrapper): boolean {
  const m = p.match.routeConfiguration?.vhost;
  if (!m) return true;
  if (!vh) return false;
  return (!m.name || m.name === vh.name) && (!m.domainName || ((vh.domains as string[] | undefined) ?? []).includes(m.domainName));
}

export const hasRouteMatch = (p: PatchWrapper): boolean => p.match.routeConfiguration?.vhost?.route !== undefined;

export function routeMatch(r: Json | undefined, p: PatchWrapper): boolean {
  const m = p.match.routeConfiguration?.vhost?.route;
  if (!m) return true;
  if (!r) return false;
  if (m.name && m.name !== r.name) return false;
  const action = m.action ?? 'ANY';
  if (action !== 'ANY') {
    if (r.route !== undefined) return action === 'ROUTE';
    if (r.redirect !== undefined) return action === 'REDIRECT';
    if (r.directResponse !== undefined) return action === 'DIRECT_RESPONSE';
  }
  return true;
}

/** model.ParseSubsetKey: `outbound|9080|v1|reviews.default.svc.cluster.local`. */
export type ClusterKey = { direction: string; port: number; subset: string; host: string };

/** The cluster name's parts, once per cluster when several patches look at it. */
export const clusterKey = (c: Json): ClusterKey => parseSubsetKey(String(c.name ?? ''));

function parseSubsetKey(name: string): ClusterKey {
  const parts = name.split('|');
  if (parts.length < 4) return { direction: '', port: 0, subset: '', host: '' };
  return { direction: parts[0] ?? '', port: Number(parts[1]) || 0, subset: parts[2] ?? '', host: parts[3] ?? '' };
}

/** clusterMatch; `inboundHosts` are the proxy's service hostnames (inbound clusters carry none in their name). */
export function clusterMatch(c: Json, p: PatchWrapper, inboundHosts: readonly string[], key?: ClusterKey): boolean {
  const m = p.match.cluster;
  if (!m) return true;
  if (m.name) return m.name === c.name;
  const k = key ?? clusterKey(c);
  const hosts = k.direction === 'inbound' && inboundHosts.length > 0 ? inboundHosts : [k.host];
  if (m.subset && m.subset !== k.subset) return false;
  if (m.service && !hosts.includes(m.service)) return false;
  if (m.portNumber && m.portNumber !== k.port) return false;
  return true;
}
