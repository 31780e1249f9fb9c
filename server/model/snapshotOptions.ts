// What a snapshot build is given (buildSnapshot's options) and the creation-time orders istiod sorts configs and
// Services by. Apart from snapshot.ts so the incremental build can read them without an import cycle. Pure.
import { byteCompare as cmp } from '../lib/compare';
import type { IngressMeshOptions } from './ingress';
import type { LoadError, MeshConfigState, ServiceModel } from './mesh';
import type { MeshConfigOverride } from './parse/meshSource';
import type { SnapshotCache } from './snapshotCache';

export interface BuildSnapshotOptions {
  version: number;
  domainSuffix?: string;
  extraErrors?: readonly LoadError[];
  /** MeshConfig's ingress fields; by default those of the mesh config in force. */
  ingressMesh?: IngressMeshOptions;
  /** A Secret source is watching (kube with the opt-in Secret RBAC): Secrets are known even when there are none. */
  secretsWatched?: boolean;
  /** `--mesh-config FILE` (text read by the caller): replaces the ConfigMap istio-system/istio. */
  meshConfig?: MeshConfigOverride;
  /** A mesh config already in force (a sandbox draft over a snapshot whose mesh came from `--mesh-config`). */
  meshState?: MeshConfigState;
  /** istiod runs with the ambient profile (PILOT_ENABLE_AMBIENT): the snapshot carries the ambient index. */
  ambient?: boolean;
  /** Per-object results kept between builds (the store's); the snapshot is the same with or without it. */
  cache?: SnapshotCache;
}

const time = (ts: string): number => {
  const t = Date.parse(ts);
  return Number.isNaN(t) ? 0 : t;
};

/** Istio's config order (model/config.go:configCompareByCreationTime): creation time, then name, then namespace. */
export function byCreation<T extends { meta: { creationTimestamp: string; name: string; namespace: string } }>(a: T, b: T): number {
  return (
    time(a.meta.creationTimestamp) - time(b.meta.creationTimestamp) ||
    cmp(a.meta.name, b.meta.name) ||
    cmp(a.meta.namespace, b.meta.namespace)
  );
}

/** push_context.go:sortServicesByCreationTime: creation time, then hostname, then namespace. */
export function byServiceCreation(a: ServiceModel, b: ServiceModel): number {
  return time(a.creationTimestamp) - time(b.creationTimestamp) || cmp(a.hostname, b.hostname) || cmp(a.namespace, b.namespace);
}
