// What the EnvoyFilter stage reports per proxy: one entry per config patch of every EnvoyFilter that could
// concern the proxy (root namespace and the proxy's namespace), applied or not, where, or why not.
import type { EnvoyConfigObjectPatch, EnvoyFilterApplyTo, EnvoyFilterOperation, EnvoyFilterPatchContext } from '../model/istio';
import type { EnvoyFilterPatchReport } from '../translate/types';

export type { EnvoyFilterPatchReport };

/** A selected patch, its value decoded (canonical proto3 JSON of the applyTo's message). */
export interface PatchWrapper {
  namespace: string;
  name: string;
  index: number;
  applyTo: EnvoyFilterApplyTo;
  operation: EnvoyFilterOperation;
  context: EnvoyFilterPatchContext;
  match: NonNullable<EnvoyConfigObjectPatch['match']>;
  value: Record<string, unknown> | undefined;
  report: EnvoyFilterPatchReport;
}
