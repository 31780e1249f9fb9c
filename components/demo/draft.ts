// The demo page's edits as a sandbox draft (pure, browser-safe): the service's VirtualService as it is
// live, with the catch-all route's weights, its fault and the `x-user: tester` route changed, as YAML.
import { stringify } from 'yaml';
import type { Weights } from './weights';

export interface DemoFault {
  /** Percent of calls delayed, and by how many ms. */
  delayPercent: number;
  delayMs: number;
  /** Percent of calls aborted with HTTP 503 (gRPC UNAVAILABLE). */
  abortPercent: number;
}

export interface DemoEdit {
  weights: Weights;
  /** Route `x-user: tester` to `testerSubset`. */
  tester: boolean;
  testerSubset: string;
  fault: DemoFault;
}

type Json = Record<string, unknown>;
interface Route extends Json {
  match?: { headers?: Record<string, { exact?: string }> }[];
  route?: { destination: { host: string; subset?: string; port?: unknown }; weight?: number }[];
  fault?: unknown;
}

export const isTesterRoute = (r: Route): boolean =>
  (r.match ?? []).some((m) => {
    const hs = Object.entries(m.headers ?? {});
    return hs.length > 0 && hs.every(([k, v]) => k === 'x-user' && v.exact === 'tester');
  });

const isCatchAll = (r: Route) => (r.match ?? []).length === 0;

/** What the live VirtualService says, as the page's starting state. */
export function editFromSpec(spec: unknown, subsets: readonly string[], observedFault?: Partial<DemoFault>): DemoEdit {
  const http = ((spec as Json | undefined)?.http ?? []) as Route[];
  const plain = http.find(isCatchAll);
  const weights: Weights = Object.fromEntries(subsets.map((s) => [s, 0]));
  const ds = plain?.route ?? [];
  for (const d of ds) if (d.destination.subset) weights[d.destination.subset] = d.weight ?? (ds.length === 1 ? 100 : 0);
  return {
    weights,
    tester: http.some(isTesterRoute),
    testerSubset: subsets.includes('v2') ? 'v2' : (subsets[subsets.length - 1] ?? ''),
    fault: { delayPercent: 0, delayMs: 1000, abortPercent: 0, ...observedFault },
  };
}

/** The draft YAML: the live VirtualService with `edit` applied (everything else kept as it is). */
export function draftYaml(vs: { namespace: string; name: string; spec: unknown }, host: string, edit: DemoEdit): string {
  const spec = structuredClone((vs.spec ?? {}) as Json);
  let http = ((spec.http ?? []) as Route[]).filter((r) => !isTesterRoute(r));
  let plain = http.find(isCatchAll);
  if (!plain) {
    plain = {};
    http.push(plain);
  }
  const port = plain.route?.[0]?.destination.port;
  const dest = (subset: string) => ({ host, subset, ...(port ? { port } : {}) });
  const chosen = Object.entries(edit.weights).filter(([, w]) => w > 0);
  plain.route =
    chosen.length === 1 ? [{ destination: dest(chosen[0]![0]) }] : chosen.map(([s, w]) => ({ destination: dest(s), weight: w }));
  const fault: Json = {};
  if (edit.fault.delayPercent > 0)
    fault.delay = { fixedDelay: `${Math.max(1, Math.round(edit.fault.delayMs))}ms`, percentage: { value: edit.fault.delayPercent } };
  if (edit.fault.abortPercent > 0) fault.abort = { httpStatus: 503, percentage: { value: edit.fault.abortPercent } };
  if (Object.keys(fault).length > 0) plain.fault = fault;
  else delete plain.fault;
  if (edit.tester)
    http = [
      { name: 'testers', match: [{ headers: { 'x-user': { exact: 'tester' } } }], route: [{ destination: dest(edit.testerSubset) }] },
      ...http,
    ];
  spec.http = http;
  return stringify({
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: vs.name, namespace: vs.namespace },
    spec,
  });
}
