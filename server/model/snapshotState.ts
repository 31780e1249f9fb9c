// What a full snapshot build leaves for the next incremental one (kept by the store's SnapshotCache; read by
// snapshotIncremental.ts). Types only.
import type { GatewayApiObjects } from './gatewayapi/types';
import type { IngressMeshOptions, IngressOutput } from './ingress';
import type { RawInput } from './inputs';
import type { IstioKind } from './istio';
import type { IstioConfig, LoadError, MeshConfigState, MeshSnapshot, NamespaceModel, ServiceModel } from './mesh';
import type { KubeObject } from './parse/objects';
import type { MeshConfigOverride } from './parse/meshSource';
import type { WorkloadInstance } from './parse/workloads';
import type { KubeEndpointSlice } from './schema/kube';

export type SePair = { service: ServiceModel; entry: IstioConfig<'ServiceEntry'>; entries?: readonly IstioConfig<'ServiceEntry'>[] };

/** What a full build leaves for the next incremental one (kept by SnapshotCache). */
export interface BuildState {
  inputs: readonly RawInput[];
  options: OptionsKey;
  snapshot: MeshSnapshot;
  /** Istio configs per kind in input order, before Ingress/Gateway API conversions were added. */
  rawIstio: { [K in IstioKind]: IstioConfig<K>[] };
  ingress: Pick<IngressOutput, 'gateways' | 'virtualServices'>;
  /** Gateways and VirtualServices converted from the Gateway API. */
  converted: { gateways: readonly IstioConfig<'Gateway'>[]; virtualServices: readonly IstioConfig<'VirtualService'>[] };
  gwApi: GatewayApiObjects;
  hasGatewayApi: boolean;
  namespaces: ReadonlyMap<string, NamespaceModel>;
  anyDeclared: boolean;
  nodeLabels: ReadonlyMap<string, Readonly<Record<string, string>>>;
  hasWorkloads: boolean;
  /** Pods given an allocated IP (parse/hash IpPool): a pod IP change may move them. */
  allocated: number;
  k8s: readonly ServiceModel[];
  sePairs: readonly SePair[];
  slices: readonly KubeObject<KubeEndpointSlice>[];
  weInstances: readonly WorkloadInstance[];
  /** Endpoint key → its place in the index's order (parse/endpoints buildEndpointIndex). */
  rank: ReadonlyMap<string, number>;
  /** The snapshot's errors after the store's (extraErrors) and before the Gateway API conversion's. */
  ownErrors: readonly LoadError[];
  convertedErrors: readonly LoadError[];
  /** `ns/name` → index in snapshot.pods, built on first use. */
  podAt?: Map<string, number>;
  /** Namespace → the indexes of its pods in snapshot.pods, ascending; built on first use (pods keep their place). */
  podsIn?: Map<string, number[]>;
  /** Per namespace: the indexes in `k8s` of its Services (ascending), built on first use. */
  k8sIn?: Map<string, number[]>;
}

/** The build options a derived snapshot must share with the last build (BuildSnapshotOptions' fields, spelled out). */
export interface OptionsKey {
  domainSuffix: string | undefined;
  ingressMesh: IngressMeshOptions | undefined;
  secretsWatched: boolean;
  meshConfig: MeshConfigOverride | undefined;
  meshState: MeshConfigState | undefined;
  ambient: boolean;
}
