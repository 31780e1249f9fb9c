// Unknown top-level and metadata fields of an object: reported as warnings (the object still loads), as the
// Kubernetes API server does with `fieldValidation=Warn` (its default since 1.25, KEP-2885). Unknown fields
// inside an Istio spec are found by its strict schema (./validate).
import type { PathIssue } from '../schema/common';
import { formatPath } from '../schema/common';

/** k8s.io/apimachinery ObjectMeta (metav1.ObjectMeta json names). */
const OBJECT_META = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

const COMMON_TOP = ['apiVersion', 'kind', 'metadata'];
/** Top-level fields per kind (Istio CRDs and the Kubernetes kinds meshscope reads). */
const TOP_LEVEL: Record<string, ReadonlySet<string>> = {
  EndpointSlice: new Set([...COMMON_TOP, 'addressType', 'endpoints', 'ports']),
  // data/stringData never get here (redactSecret); kept in the set so a redacted-elsewhere object is not flagged.
  Secret: new Set([...COMMON_TOP, 'type', 'immutable', 'data', 'stringData']),
};
const SPEC_STATUS = new Set([...COMMON_TOP, 'spec', 'status']);

/** Warnings for unknown top-level and metadata fields of a known kind. */
export function unknownFields(kind: string, raw: Record<string, unknown>): PathIssue[] {
  const out: PathIssue[] = [];
  const top = TOP_LEVEL[kind] ?? SPEC_STATUS;
  for (const key of Object.keys(raw))
    if (!top.has(key)) out.push({ path: formatPath('', [key]), message: `unknown field "${key}" (ignored)` });
  const md = raw.metadata;
  if (md && typeof md === 'object' && !Array.isArray(md))
    for (const key of Object.keys(md))
      if (!OBJECT_META.has(key)) out.push({ path: formatPath('metadata', [key]), message: `unknown field "${key}" (ignored)` });
  return out;
}
