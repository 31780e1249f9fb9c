// Provenance metadata on generated routes and clusters, as Istio writes it
// (networking/util AddConfigInfoMetadata): filter_metadata.istio.config = /apis/GROUP/VERSION/namespaces/NS/KIND/NAME
import type { IstioConfig } from '../model/mesh';

const kebab = (kind: string): string => kind.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
/** The kinds written on every route and cluster, converted once (a regex per route is measurable in RDS). Frozen. */
const KEBAB: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(['VirtualService', 'DestinationRule', 'ServiceEntry', 'Gateway', 'Sidecar', 'EnvoyFilter'].map((k) => [k, kebab(k)])),
);

/** `VirtualService` → `virtual-service` (Istio's kebab-case kind in config paths). */
export const kebabKind = (kind: string): string => (Object.hasOwn(KEBAB, kind) ? (KEBAB[kind] as string) : kebab(kind));

/** `/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews`. Istio always writes v1. */
export function configPath(kind: string, namespace: string, name: string, group = 'networking.istio.io', version = 'v1'): string {
  return `/apis/${group}/${version}/namespaces/${namespace}/${kebabKind(kind)}/${name}`;
}

export const configPathOf = (c: Pick<IstioConfig, 'kind' | 'meta'>): string => configPath(c.kind, c.meta.namespace, c.meta.name);

/** Inverse of configPath, for the UI and the simulator. */
export function parseConfigPath(
  path: string,
): { group: string; version: string; namespace: string; kind: string; name: string } | undefined {
  const m = /^\/apis\/([^/]+)\/([^/]+)\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
  if (!m) return undefined;
  const [, group, version, namespace, kebab, name] = m as unknown as [string, string, string, string, string, string];
  const kind = kebab.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  return { group, version, namespace, kind, name };
}

/** `{ filterMetadata: { istio: { config } } }` in the generated camelCase JSON form. */
export const istioConfigMetadata = (c: Pick<IstioConfig, 'kind' | 'meta'>) => ({
  filterMetadata: { istio: { config: configPathOf(c) } },
});
