// The runtime's CPU pool (server/isolate/pool.ts) and its settings from the environment, plus the live
// contracts (`serve --contracts FILE`) run in it once per snapshot version.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { ContractsState } from '../api/contracts';
import type { Store } from '../sources/store';
import { ensureWorkerFile } from './entry';
import { CpuPool, type CpuPoolOptions } from './pool';
import type { ContractsTaskBody } from './worker';

const intEnv = (name: string): number | undefined => {
  const v = process.env[name]?.trim();
  return v && /^\d+$/.test(v) ? Number(v) : undefined;
};

/**
 * MESHSCOPE_CPU_WORKERS (default: cores − 1, at least 1, at most 4), MESHSCOPE_CPU_QUEUE (16),
 * MESHSCOPE_CPU_BUDGET_MS (10000), MESHSCOPE_CPU_MEMORY_MB (1024). docs/budgets.md.
 */
export function poolSettingsFromEnv(): Pick<CpuPoolOptions, 'workers' | 'queue' | 'budgetMs' | 'memoryMb'> {
  const out: Pick<CpuPoolOptions, 'workers' | 'queue' | 'budgetMs' | 'memoryMb'> = {
    workers: intEnv('MESHSCOPE_CPU_WORKERS') || Math.max(1, Math.min(4, availableParallelism() - 1)),
  };
  const queue = intEnv('MESHSCOPE_CPU_QUEUE');
  const budget = intEnv('MESHSCOPE_CPU_BUDGET_MS');
  const memory = intEnv('MESHSCOPE_CPU_MEMORY_MB');
  if (queue !== undefined) out.queue = queue;
  if (budget) out.budgetMs = budget;
  if (memory) out.memoryMb = memory;
  return out;
}

/** The pool of a runtime: the store's current snapshot, the worker bundle under `root`. */
export function storePool(store: Store, root: string, opts: Partial<CpuPoolOptions> = {}): CpuPool {
  return new CpuPool({
    entry: () => ensureWorkerFile(root),
    spec: () => ({ version: store.snapshot().version, spec: store.buildSpec() }),
    ...poolSettingsFromEnv(),
    ...opts,
  });
}

/**
 * `serve --contracts FILE` on every snapshot version, in the pool: the file is read once at start; the
 * result of a version is computed once (concurrent callers share it). A run past its budget is a result
 * with that error and no contract results, never a stalled page.
 */
export function poolContracts(file: string | undefined, pool: CpuPool, version: () => number): (() => Promise<ContractsState>) | undefined {
  if (!file) return undefined;
  let text: ContractsTaskBody['text'];
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    text = { error: (e as Error).message };
  }
  let last: { version: number; state: Promise<ContractsState> } | undefined;
  return () => {
    const v = version();
    if (last?.version === v) return last.state;
    const body: ContractsTaskBody = { file, text };
    const state = pool.run('contracts', body).then((a): ContractsState => {
      const parsed = JSON.parse(a.json) as ContractsState | { error: string; stage: string };
      if (a.status === 200) return parsed as ContractsState;
      if (last?.version === v) last = undefined; // a refused or failed run is retried by the next caller
      const message = `contracts not run: ${(parsed as { error: string }).error}`;
      return { file, version: v, errors: [{ level: 'error', message }], results: [], passed: 0, failed: 0 };
    });
    last = { version: v, state };
    return state;
  };
}
