// The sandbox contract (issue #9): a draft over the live snapshot, and what evaluating it returns.
// Shared by the engine (server/sandbox/*), POST /api/sandbox/evaluate, `meshscope diff|check` and the
// /sandbox UI. Browser-safe: types only. Fields may be added; none may change meaning.
import type { ProxyKind } from '../model/proxyKinds';
import type { SimRequest, SimResult } from '../simulate/types';

/** One edit of a draft, in order. Objects are Kubernetes-shaped (apiVersion/kind/metadata/spec). */
export type DraftEdit =
  | { op: 'put'; object: Record<string, unknown>; origin?: DraftOrigin }
  | { op: 'delete'; ref: ObjectRefKey; origin?: DraftOrigin };

export interface ObjectRefKey {
  /** Tells same-named kinds of different groups apart (Istio vs Gateway API `Gateway`); any group when absent. */
  apiVersion?: string;
  kind: string;
  namespace: string;
  name: string;
}

/** Where in the draft text an edit came from (1-based line/column). */
export interface DraftOrigin {
  doc: number;
  line: number;
  column?: number;
}

/** A located problem in the draft or a finding of an analyzer, located in the draft text when it is there. */
export interface SandboxProblem {
  level: 'error' | 'warning' | 'info';
  /** Istio code for analyzer findings (IST0101…); absent for parse/validation errors. */
  code?: string;
  message: string;
  /** `Kind namespace/name` */
  object?: string;
  /** YAML path inside the object, e.g. `spec.http[0].route[0].weight`. */
  path?: string;
  /** 1-based position in the draft text, when the problem is in the draft. */
  line?: number;
  column?: number;
  doc?: number;
}

export type FindingState = 'new' | 'resolved' | 'unchanged';

export interface SandboxFinding extends SandboxProblem {
  state: FindingState;
}

/** Envoy's four, and ztunnel's WDS (istio.workload.Address, istio.security.Authorization) for the `ztunnel` entry. */
export type EnvoyResourceType = 'listeners' | 'routes' | 'clusters' | 'endpoints';
export type ResourceType = EnvoyResourceType | 'addresses' | 'authorizations';

/** Which VirtualService rule produced a route (from translation's provenance, never re-derived). */
export interface RuleSource {
  kind: string;
  namespace: string;
  name: string;
  /** e.g. `http[1]`; delegate rules carry the root rule too. */
  rule?: string;
  delegate?: { namespace: string; name: string; rule?: string };
}

export interface RouteChange {
  change: 'added' | 'removed' | 'moved' | 'changed';
  routeConfig: string;
  virtualHost: string;
  route: string;
  /** Index in the virtual host before / after. */
  from?: number;
  to?: number;
  /** What changed, human-readable: "weights v1 80/v2 20 → 50/50", "match changed", "timeout 10s → 2s". */
  detail?: string;
  /** Weighted clusters before → after (cluster name → weight), when they changed. */
  weights?: { before?: Record<string, number>; after?: Record<string, number> };
  source?: RuleSource;
}

export interface ResourceChange {
  type: ResourceType;
  name: string;
  change: 'added' | 'removed' | 'changed';
  /** Raw Envoy JSON before/after, for a JSON diff (absent on the side where it does not exist). */
  before?: unknown;
  after?: unknown;
}

/** The semantic diff of one proxy's config, live → draft. */
export interface ProxyDiff {
  proxy: string;
  /** Short lines: "gains route `jason` on vhost reviews…:9080", "weights v1 80/v2 20 → 50/50", … */
  summary: string[];
  virtualHosts: { change: 'added' | 'removed'; routeConfig: string; virtualHost: string }[];
  routes: RouteChange[];
  resources: ResourceChange[];
}

export interface BlastRadiusEntry {
  proxy: string;
  type: ProxyKind;
  namespace: string;
  /** Resource types that change for this proxy. */
  types: ResourceType[];
  summary: string[];
  /** The proxy may change but was not translated (more candidates than the evaluation's translation limit). */
  unverified?: boolean;
}

export interface RequestCheck {
  /** Label shown in the UI, e.g. "productpage → GET reviews:9080/reviews/1". */
  name?: string;
  proxy: string;
  request: SimRequest;
}

/** Where the request goes: a single cluster, or a distribution over weighted clusters (percent). */
export interface CheckOutcome {
  result: SimResult;
  /** cluster → percent (sums to 100), for a single cluster `{cluster: 100}`; absent on error. */
  distribution?: Record<string, number>;
  error?: string;
}

export interface RequestCheckResult {
  check: RequestCheck;
  live: CheckOutcome;
  draft: CheckOutcome;
  changed: boolean;
}

/** A routing contract: a request and what must happen to it (issue #9 §2). */
export interface RoutingContract {
  name: string;
  proxy: string;
  request: SimRequest;
  expect:
    | { cluster: string }
    | { host: string; subset?: string; port?: number }
    | { cluster: string; minPercent?: number; maxPercent?: number }
    | { error: string };
}

export interface ContractResult {
  contract: RoutingContract;
  pass: boolean;
  /** Why it failed, or what was observed. */
  detail: string;
  outcome: CheckOutcome;
}

export interface EvaluateResult {
  /** Parse/validation problems of the draft text, located (line/column, object, field path). */
  errors: SandboxProblem[];
  /** The edits the draft made (objects added / replaced / deleted). */
  edits: { op: 'add' | 'replace' | 'delete'; object: string; line?: number }[];
  blastRadius: BlastRadiusEntry[];
  /** Full semantic diffs for the proxies asked for (or every changed proxy when few). */
  diffs: ProxyDiff[];
  findings: SandboxFinding[];
  checks: RequestCheckResult[];
  contracts?: ContractResult[];
  /**
   * proxies: in the draft mesh; candidates: named by the change-impact logic; translated: proxies translated
   * (per side — proxies of one shape share a translation); ms: wall time of the evaluation (set by the caller).
   */
  stats: { proxies: number; translated: number; candidates?: number; ms?: number };
}
