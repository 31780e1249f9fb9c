// `serve --contracts FILE`: routing contracts run on every live snapshot (in the CPU pool, once per snapshot
// version: server/isolate/runtimePool.ts), for GET /api/contracts and the overview's contract line. A file
// that does not parse is reported with its located errors (and no results), never a crash.
import type { MeshSnapshot, TranslateOptions } from '../model/mesh';
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

export type ContractsResponse = ContractsState | { file: null; results: []; errors: []; passed: 0; failed: 0 };

export function contractsResponse(state: ContractsState | undefined): ApiResult<ContractsResponse> {
  return ok(state ?? { file: null, results: [], errors: [], passed: 0, failed: 0 });
}
