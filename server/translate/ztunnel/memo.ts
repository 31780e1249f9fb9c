// Incremental WDS (istiod's krt collections / ztunnel's resend-only-changes): the translated Address of every pod
// and Kubernetes Service is reused from the previous build while everything it is computed from is unchanged.
// Snapshots share unchanged PodModel / ServiceModel objects (model/snapshotCache), so a memo keyed by those
// objects' identity plus the other inputs each Address reads turns a pod IP change into one Workload rebuilt.
// Owned by the caller (the runtime's SharedResourceCache); translation stays pure: a build with a memo equals a
// build without one, byte for byte (memo.test.ts).
import type { PodModel, ServiceModel } from '../../model/mesh';

/** What a pod's Workload reads besides the pod, the options and its waypoint binding (per namespace). */
export type NamespaceDeps = readonly unknown[];

interface PodEntry {
  token: object;
  waypoint: string;
  value: unknown;
}

interface ServiceEntry {
  waypoint: string;
  ingress: boolean;
  json: Record<string, unknown>;
}

export class ZtunnelMemo {
  private options = '';
  private readonly pods = new WeakMap<PodModel, PodEntry>();
  private readonly services = new WeakMap<ServiceModel, ServiceEntry>();
  /** Address wrappers by translated JSON: the same object every build, so encoding is reused by identity. */
  private readonly wrappers = new WeakMap<object, object>();
  /** Namespace → its dependencies and the token pod entries hold while they stay element-wise identical. */
  private tokens = new Map<string, { deps: NamespaceDeps; token: object }>();
  private next = new Map<string, { deps: NamespaceDeps; token: object }>();
  hits = 0;
  misses = 0;

  /** Starts a build: a change of translate options forgets everything. */
  begin(optionsKey: string): void {
    if (optionsKey !== this.options) {
      this.options = optionsKey;
      this.tokens = new Map();
    }
    this.next = new Map();
  }

  /** Ends a build: only this build's namespaces are kept. */
  end(): void {
    this.tokens = this.next;
  }

  /** The token of a namespace's dependencies: the previous one while they are identical, else a new one. */
  token(namespace: string, deps: NamespaceDeps): object {
    const seen = this.next.get(namespace);
    if (seen) return seen.token;
    const prev = this.tokens.get(namespace);
    const same = prev !== undefined && prev.deps.length === deps.length && prev.deps.every((d, i) => d === deps[i]);
    const entry = same ? prev : { deps, token: {} };
    this.next.set(namespace, entry);
    return entry.token;
  }

  pod<T>(pod: PodModel, token: object, waypoint: string, build: () => T): T {
    const e = this.pods.get(pod);
    if (e && e.token === token && e.waypoint === waypoint) {
      this.hits++;
      return e.value as T;
    }
    this.misses++;
    const value = build();
    this.pods.set(pod, { token, waypoint, value });
    return value;
  }

  service(s: ServiceModel, waypoint: string, ingress: boolean, build: () => Record<string, unknown>): Record<string, unknown> {
    const e = this.services.get(s);
    if (e && e.waypoint === waypoint && e.ingress === ingress) return e.json;
    const json = build();
    this.services.set(s, { waypoint, ingress, json });
    return json;
  }

  /** `make(json)`, the same object for the same `json` every build. */
  wrap<W extends object>(json: object, make: () => W): W {
    let w = this.wrappers.get(json) as W | undefined;
    if (!w) this.wrappers.set(json, (w = make()));
    return w;
  }
}
