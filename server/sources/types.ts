// The contract between sources (files, Kubernetes, the sandbox) and the store.
// Sources hand over raw Kubernetes-shaped objects; parsing and validation happen once, when the
// store builds a snapshot, so every source gets the same located errors.
import type { LoadError } from '../model/mesh';
import type { RawInput, SourceStatus } from '../model/inputs';

export type { RawInput, RawObject, SourceStatus } from '../model/inputs';

/**
 * What a source writes to. `replace` sets the whole object set of a source (files, relists);
 * `upsert`/`remove` apply single changes (watch events). Object identity is
 * apiVersion-group/kind/namespace/name; putting a deep-equal object is a no-op.
 */
export interface SourceSink {
  replace(sourceId: string, inputs: readonly RawInput[], errors?: readonly LoadError[], opts?: ReplaceOptions): void;
  upsert(sourceId: string, input: RawInput): void;
  remove(sourceId: string, ref: { apiVersion: string; kind: string; namespace?: string; name: string }): void;
  status(status: SourceStatus): void;
}

export interface ReplaceOptions {
  /**
   * The source already debounced this batch (the file source's quiet window): the store publishes it at once
   * instead of waiting its own debounce, so a file write meets ONE debounce window before the snapshot, as
   * with istiod's single PILOT_DEBOUNCE_AFTER.
   */
  settled?: boolean;
}

export interface Source {
  readonly id: string;
  start(sink: SourceSink): Promise<void>;
  stop(): Promise<void>;
}
