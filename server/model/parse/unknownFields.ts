// Unknown fields of an object: reported as located warnings and ignored (the object still loads), as the
// Kubernetes API server does with `fieldValidation=Warn` (its default since 1.25, KEP-2885: unknown fields are
// pruned and returned as warnings). Top level and metadata for every kind, the parts meshscope reads for the
// Kubernetes kinds (schema/kubeFields); unknown fields inside an Istio spec are found by its strict schema (./validate).
import type { PathIssue } from '../schema/common';
import { formatPath } from '../schema/common';
import { type FieldShape, KUBE_FIELDS } from '../schema/kubeFields';

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
const SPEC_STATUS: FieldShape = { fields: new Set([...COMMON_TOP, 'spec', 'status']) };

/**
 * Warnings for unknown fields of a known kind: its top level and metadata, and, for the Kubernetes kinds, the
 * parts meshscope reads (schema/kubeFields). The fields stay in the raw object; nothing reads them.
 */
export function unknownFields(kind: string, raw: Record<string, unknown>): PathIssue[] {
  const out: PathIssue[] = [];
  walk(KUBE_FIELDS[kind] ?? SPEC_STATUS, raw, [], out);
  const md = raw.metadata;
  if (md && typeof md === 'object' && !Array.isArray(md))
    for (const key of Object.keys(md))
      if (!OBJECT_META.has(key)) out.push({ path: formatPath('metadata', [key]), message: `unknown field "${key}" (ignored)` });
  return out;
}

function walk(shape: FieldShape, value: Record<string, unknown>, path: (string | number)[], out: PathIssue[]): void {
  for (const [key, v] of Object.entries(value)) {
    if (!shape.fields.has(key)) {
      out.push({ path: formatPath('', [...path, key]), message: `unknown field "${key}" (ignored)` });
      continue;
    }
    const obj = shape.objects?.[key];
    if (obj && isObject(v)) walk(obj, v, [...path, key], out);
    const item = shape.lists?.[key];
    if (item && Array.isArray(v)) v.forEach((x, i) => isObject(x) && walk(item, x, [...path, key, i], out));
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
