// The messages between the CPU pool (server/isolate/pool.ts, on the thread that serves ADS and HTTP) and
// its workers (server/isolate/worker.ts). Plain data only: everything crosses postMessage.
import type { SnapshotSpec } from '../sources/store';

/** The work a request may ask for whose cost the request controls. */
export type TaskKind = 'simulate' | 'evaluate' | 'contracts';

/**
 * Where a task was when it ended badly: waiting for a worker (`queue`), starting one (`worker`), building
 * the snapshot in it (`snapshot`), or running the task itself (its kind).
 */
export type Stage = 'queue' | 'worker' | 'snapshot' | TaskKind;

/** The snapshot a task runs on: v8-serialised SnapshotSpec bytes, shared by every worker (never copied). */
export interface SnapshotMessage {
  t: 'snapshot';
  version: number;
  bytes: SharedArrayBuffer;
  length: number;
}

export interface TaskMessage {
  t: 'task';
  id: number;
  kind: TaskKind;
  /** The request body as the client sent it (validated in the worker by the handler). */
  body: unknown;
}

export type ToWorker = SnapshotMessage | TaskMessage;

export type FromWorker =
  | { t: 'stage'; id: number; stage: Stage }
  /** `json`: the response body already serialised (the thread serving HTTP only writes it out). */
  | { t: 'done'; id: number; status: number; json: string }
  | { t: 'failed'; id: number; stage: Stage; error: string };

export type { SnapshotSpec };
