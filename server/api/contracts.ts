// `serve --contracts FILE`: routing contracts run on every live snapshot (memoised per snapshot version),
// for GET /api/contracts and the overview's contract line. The file is read once at start; a file that
// does not parse is reported with its located errors (and no results), never a crash.
import { readFileSync } from 'node:fs';
import { type MeshSnapshot, optionsOf, type TranslateOptions } from '../model/mesh';
import type { ResourceCache } from '../pipeline/proxyResources';
import { runContracts } from '../sandbox/checks';
import { parseContracts } from '../sandbox/contracts';
import type { ContractResult, SandboxProblem } from '../sandbox/types';
import { ok, type ApiResult } from './types';

export interface ContractsState {
  file: string;
  version: number;
  errors: SandboxProblem[];
  results: ContractResult[];
  passed: number;
  failed: number;
}

export function contractsState(
  file: string,
  text: string | Error,
  snapshot: MeshSnapshot,
  options: TranslateOptions,
  cache?: ResourceCache,
): ContractsState {
  const base = { file, version: snapshot.version };
  if (text instanceof Error)
    return { ...base, errors: [{ level: 'error', message: `cannot read ${file}: ${text.message}` }], results: [], passed: 0, failed: 0 };
  const parsed = parseContracts(text);
  const results = runContracts({ snapshot, options, ...(cache ? { cache } : {}) }, parsed.contracts);
  const failed = results.filter((r) => !r.pass).length;
  return { ...base, errors: parsed.errors, results, passed: results.length - failed, failed };
}

/** A memoised runner for the runtime: undefined when no contracts file was given. */
export function liveContracts(
  file: string | undefined,
  snapshot: () => MeshSnapshot,
  options: TranslateOptions | undefined,
  cache?: ResourceCache,
): (() => ContractsState) | undefined {
  if (!file) return undefined;
  let text: string | Error;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    text = e as Error;
  }
  let last: ContractsState | undefined;
  return () => {
    const snap = snapshot();
    if (!last || last.version !== snap.version) last = contractsState(file, text, snap, options ?? optionsOf(snap), cache);
    return last;
  };
}

export type ContractsResponse = ContractsState | { file: null; results: []; errors: []; passed: 0; failed: 0 };

export function contractsResponse(state: ContractsState | undefined): ApiResult<ContractsResponse> {
  return ok(state ?? { file: null, results: [], errors: [], passed: 0, failed: 0 });
}
