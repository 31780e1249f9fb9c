// Routing contracts from the sandbox: "what the draft does to this request" pinned as a contract
// (README "Routing contracts": {name, proxy, request, expect}), kept in the browser and downloadable as
// the YAML file `meshscope check --contracts` reads.
import { stringify } from 'yaml';
import type { CheckOutcome, RequestCheck, RoutingContract } from '@/server/sandbox/types';

/**
 * The contract a check's outcome satisfies: its error; its one cluster; or, for a split, the largest
 * share's cluster at exactly that percent. Undefined when the outcome says nothing (no cluster, no error).
 */
export function contractFromCheck(check: RequestCheck, outcome: CheckOutcome): RoutingContract | undefined {
  const base = {
    name: check.name ?? `${check.proxy} ${check.request.host ?? ''}${check.request.path ?? ''}`,
    proxy: check.proxy,
    request: check.request,
  };
  const error = outcome.error ?? outcome.result.error;
  if (error) return { ...base, expect: { error } };
  const dist = Object.entries(outcome.distribution ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const top = dist[0];
  if (!top) return undefined;
  if (dist.length === 1) return { ...base, expect: { cluster: top[0] } };
  return { ...base, name: `${base.name} (${top[1]}%)`, expect: { cluster: top[0], minPercent: top[1], maxPercent: top[1] } };
}

export const contractsYaml = (contracts: readonly RoutingContract[]) => stringify({ contracts }, { indentSeq: false });

export const STORAGE_KEY = 'meshscope.sandbox.contracts';

export function readStoredContracts(raw: string | null): RoutingContract[] {
  if (!raw) return [];
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? v.filter((c): c is RoutingContract => !!c && typeof c === 'object' && 'expect' in c && 'proxy' in c) : [];
  } catch {
    return [];
  }
}
