// A CPU worker (node:worker_threads): runs simulate / sandbox evaluate / contract tasks for the pool in
// server/isolate/pool.ts, off the thread that serves ADS. Bundled by scripts/build-cli.mjs into
// dist/cli/cpuWorker.mjs (a worker needs a real JS file at run time). It keeps the snapshot of one version:
// the SnapshotSpec bytes arrive once per version (shared memory), and the snapshot is built from them the
// first time a task needs it — the same buildSnapshot the store ran, so the same snapshot.
import { deserialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { contractsState } from '../api/contracts';
import { evaluateSandbox } from '../api/sandbox';
import { simulateRequest } from '../api/simulate';
import type { ApiContext, ApiResult } from '../api/types';
import { type MeshSnapshot, optionsOf } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { createCache } from '../pipeline/cache';
import type { ResourceCache } from '../pipeline/proxyResources';
import type { BaseParts } from '../sandbox/translateParts';
import type { FromWorker, SnapshotMessage, SnapshotSpec, Stage, TaskMessage, ToWorker } from './protocol';

/** The body of a `contracts` task: the contracts file's name and text (`serve --contracts`). */
export interface ContractsTaskBody {
  file: string;
  text: string | { error: string };
}

interface Loaded {
  version: number;
  spec: SnapshotSpec;
  snapshot: MeshSnapshot;
  cache: ResourceCache;
  parts: BaseParts;
}

function startWorker(port: NonNullable<typeof parentPort>): void {
  let pending: SnapshotMessage | undefined;
  let loaded: Loaded | undefined;
  /** The stage of the running task (what a failure reports). */
  let stage: Stage = 'queue';
  const send = (m: FromWorker) => port.postMessage(m);
  const enter = (id: number, s: Stage) => {
    stage = s;
    send({ t: 'stage', id, stage: s });
  };

  /** The snapshot of the last version announced, built on first use (stage `snapshot`). */
  const current = (id: number): Loaded => {
    if (pending && pending.version !== loaded?.version) {
      const was = stage;
      enter(id, 'snapshot');
      const spec = deserialize(Buffer.from(pending.bytes, 0, pending.length)) as SnapshotSpec;
      const snapshot = buildSnapshot(spec.inputs, spec.options);
      // Fresh caches per version: entries of an older snapshot can never hit again.
      loaded = { version: pending.version, spec, snapshot, cache: createCache(512) as ResourceCache, parts: createCache(512) };
      pending = undefined;
      enter(id, was);
    }
    if (!loaded) throw new Error('no snapshot was sent to this worker');
    return loaded;
  };

  const context = (id: number): ApiContext => {
    // Lazy: a simulation of an uploaded dump never needs the mesh.
    const ctx = {
      get snapshot() {
        return current(id).snapshot;
      },
      get options() {
        return optionsOf(current(id).snapshot);
      },
      get cache() {
        return current(id).cache;
      },
      get sandboxParts() {
        return current(id).parts;
      },
      inputs: () => current(id).spec.inputs,
    };
    return ctx as ApiContext;
  };

  const run = (task: TaskMessage): ApiResult => {
    const ctx = context(task.id);
    if (task.kind === 'simulate') return simulateRequest(ctx, task.body);
    if (task.kind === 'evaluate') {
      const t0 = performance.now();
      const res = evaluateSandbox(ctx, task.body);
      const body = res.body as { stats?: { ms?: number } };
      if (res.status === 200 && body.stats) body.stats.ms = Math.round(performance.now() - t0);
      return res;
    }
    const { file, text } = task.body as ContractsTaskBody;
    const state = contractsState(file, typeof text === 'string' ? text : new Error(text.error), ctx.snapshot, ctx.options, ctx.cache);
    return { status: 200, body: state };
  };

  port.on('message', (m: ToWorker) => {
    if (m.t === 'snapshot') {
      pending = m;
      return;
    }
    enter(m.id, m.kind);
    try {
      const res = run(m);
      send({ t: 'done', id: m.id, status: res.status, json: JSON.stringify(res.body) });
    } catch (e) {
      send({ t: 'failed', id: m.id, stage, error: e instanceof Error ? e.message : String(e) });
    }
  });
}

if (parentPort) startWorker(parentPort);
