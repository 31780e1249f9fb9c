// The drift body (issue 21 §2): `GET /api/proxies/POD.NS/drift` without `proxy`, `POST /api/drift` and
// `meshscope drift -o json`. "meshscope" is the expected side, "envoy" the actual one (offline: the two dumps).
import type { RouteChange } from '../sandbox/types';

export type DriftType = 'listeners' | 'routes' | 'clusters' | 'endpoints';
export const DRIFT_TYPES: readonly DriftType[] = ['listeners', 'routes', 'clusters', 'endpoints'];

export type DriftChange = 'changed' | 'onlyInEnvoy' | 'onlyInMeshscope';

export interface DriftResource {
  type: DriftType;
  name: string;
  change: DriftChange;
  /** `unmodelled`: the resources differ only in what meshscope does not generate (server/drift/policy.ts). */
  class?: 'unmodelled';
  /** Field paths that differ (Envoy field names), for `changed`. */
  paths?: string[];
  /** The expected resource (canonical JSON), when the expected side has it. */
  meshscope?: unknown;
  /** The actual resource (canonical JSON), when the actual side has it. */
  envoy?: unknown;
}

export interface DriftCounts {
  same: number;
  changed: number;
  onlyInEnvoy: number;
  onlyInMeshscope: number;
}

export interface DriftNack {
  type: DriftType;
  name: string;
  details: string;
}

export interface DriftBody {
  inSync: boolean;
  counts: Record<DriftType, DriftCounts>;
  resources: DriftResource[];
  /** The sandbox's semantic route diff (server/sandbox/diffRoutes.ts): before = expected, after = actual. */
  routes: RouteChange[];
  nacked: DriftNack[];
  /** Entries of the actual dump that are not compared. */
  ignored: { static: number; warming: number; draining: number };
}

export interface DriftOptions {
  /** Cap on the field paths listed per resource (default 50). */
  maxPaths?: number;
  /** Leave the resource bodies (`meshscope`, `envoy`) out of `resources` (CLI text output, the proxies table). */
  withoutBodies?: boolean;
}

/** A dump that cannot be read at all (not JSON, no `configs`): which side, and why. */
export class DriftInputError extends Error {
  constructor(
    readonly side: 'expected' | 'actual',
    message: string,
  ) {
    super(`${side}: ${message}`);
    this.name = 'DriftInputError';
  }
}
