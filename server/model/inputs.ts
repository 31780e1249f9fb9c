// What sources hand the model: raw Kubernetes-shaped objects with their origin, and each source's health.
// Declared here (not in sources/) so the model never imports the layer above it; sources/types.ts
// re-exports them beside the Source/SourceSink contract.
import type { Origin } from './mesh';

/** A Kubernetes-style object as JSON (apiVersion/kind/metadata + the rest), unvalidated. */
export interface RawObject {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: unknown;
  [field: string]: unknown;
}

export interface RawInput {
  object: RawObject;
  origin: Origin;
}

/** Health of one source, for the UI banner and /debug/registryz. */
export interface SourceStatus {
  id: string;
  kind: 'demo' | 'file' | 'kube' | 'sandbox' | 'prometheus';
  state: 'connected' | 'resyncing' | 'failing' | 'stopped';
  /** prometheus: the base URL meshscope queries. */
  url?: string;
  detail?: string;
  lastError?: string;
  /** Per watched resource (kube: one per informer). */
  resources?: Record<string, { state: SourceStatus['state']; lastError?: string; count: number }>;
}
