// Transport-free handler plumbing: every handler takes an ApiContext (what the runtime or the CLI
// holds) and returns an ApiResult; app/api route adapters and /debug turn it into a Response.
import type { WarmupState } from '../impact/scopeWarmup';
import type { LoadError, MeshSnapshot, TranslateOptions } from '../model/mesh';
import type { ResourceCache } from '../pipeline/proxyResources';
import type { SourceStatus } from '../model/inputs';
import type { BaseParts } from '../sandbox/translateParts';
import type { RawInput } from '../sources/types';
import type { SyncStatus } from '../xds/types';
import type { ReadText } from '../sources/file/lines';
import type { SnapshotMemo } from './snapshotMemo';
import type { Viewer } from '../auth/access';

export type { SyncStatus } from '../xds/types';

export type XdsState =
  | { state: 'off' | 'starting' }
  // `warmup`: the Sidecar scopes built ahead of their first client (impact/scopeWarmup.ts), when it runs.
  | { state: 'listening'; port: number; warmup?: WarmupState }
  | { state: 'failing'; error: string };

export interface ApiContext {
  snapshot: MeshSnapshot;
  options: TranslateOptions;
  cache?: ResourceCache;
  statuses?: readonly SourceStatus[];
  /** Connected xDS clients (empty until the ADS server is wired). */
  sync?: () => readonly SyncStatus[];
  /** The ADS server's state. */
  xds?: XdsState;
  /** The raw inputs `snapshot` was built from (what the sandbox overlays a draft on). */
  inputs?: () => readonly RawInput[];
  /** Live-side sandbox translations kept across evaluations (server/sandbox/translateParts.ts BaseParts). */
  sandboxParts?: BaseParts;
  /** RFC 3339 "now", when the caller has a clock (handlers themselves never read one). */
  now?: string;
  /** Reads an input file's text again, to locate problems at their line (file sources only). */
  readText?: ReadText;
  /** Views computed once per snapshot (the runtime's; absent: computed on every call). */
  memo?: SnapshotMemo;
  /** The signed-in caller and the namespaces it may see (`serve --auth` other than none); absent: everything. */
  viewer?: Viewer;
}

export interface ApiResult<T = unknown> {
  status: number;
  body: T;
}

/** Any `/api/*` failure. */
export interface ErrorBody {
  error: string;
  errors?: readonly LoadError[];
}

export const ok = <T>(body: T): ApiResult<T> => ({ status: 200, body });
export const fail = (status: number, error: string, errors?: readonly LoadError[]): ApiResult<ErrorBody> => ({
  status,
  body: errors ? { error, errors } : { error },
});
