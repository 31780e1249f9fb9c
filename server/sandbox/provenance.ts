// The ONE place the sandbox reads where a generated route came from: translation's own record
// (ResourceTable.provenance / ProxyResources.provenance: VirtualService + `http[i]`, delegate), looked up by
// the route's place (route config, virtual host, index) — never re-translated or string-matched afterwards.
// A route translation recorded no rule for (default and catch-all routes) falls back to the object named by
// its filter_metadata.istio.config (Istio's AddConfigInfoMetadata; either JSON field style), without a rule.
import type { EnvoyJson } from '../envoy/encode';
import type { RouteProvenance } from '../translate/types';
import { parseConfigPath } from '../translate/provenance';
import type { RuleSource } from './types';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/** Looks up the source of the route at (route config, virtual host, index). */
export type RouteSourceLookup = (routeConfig: string, virtualHost: string, index: number, route: Json) => RuleSource | undefined;

function fromMetadata(resource: EnvoyJson | Json): RuleSource | undefined {
  const md = obj(resource.metadata);
  const path = obj(obj(md?.filterMetadata ?? md?.filter_metadata)?.istio)?.config;
  if (typeof path !== 'string') return undefined;
  const p = parseConfigPath(path);
  return p ? { kind: p.kind, namespace: p.namespace, name: p.name } : undefined;
}

export function routeSources(provenance: readonly RouteProvenance[] | undefined): RouteSourceLookup {
  const byPlace = new Map<string, RuleSource>();
  for (const p of provenance ?? []) {
    const s = p.source;
    const out: RuleSource = { kind: s.kind, namespace: s.namespace, name: s.name, rule: s.rule };
    if (s.delegate) out.delegate = { ...s.delegate };
    byPlace.set(`${p.routeConfig}\u0000${p.virtualHost}\u0000${p.index}`, out);
  }
  return (rc, vh, index, route) => byPlace.get(`${rc}\u0000${vh}\u0000${index}`) ?? fromMetadata(route);
}
