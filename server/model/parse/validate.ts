// Validation of one object body: zod schema (exact field paths) + Istio webhook checks.
import type { z } from 'zod';
import type { IstioKind, IstioSpecs } from '../istio';
import { formatPath, stripNulls, zodIssues, type PathIssue } from '../schema/common';
import { checkDestinationRule, checkGateway, checkServiceEntry, checkSidecar } from '../schema/checkOthers';
import { checkVirtualService } from '../schema/checkVirtualService';
import { destinationRuleSpec } from '../schema/destinationRule';
import { gatewaySpec } from '../schema/gateway';
import { checkPeerAuthentication, peerAuthenticationSpec } from '../schema/peerAuthentication';
import { endpointSlice, pod, service, workload } from '../schema/kube';
import { ingress, ingressClass, secret } from '../schema/ingress';
import { serviceEntrySpec, sidecarSpec, workloadEntry } from '../schema/serviceEntry';
import { checkWorkloadEntry } from '../schema/checkWorkloadEntry';
import { virtualServiceSpec } from '../schema/virtualService';
import { authorizationPolicySpec, checkAuthorizationPolicy } from '../schema/authorizationPolicy';
import { checkEnvoyFilter, envoyFilterSpec } from '../schema/envoyFilter';

type SpecSchemas = { [K in IstioKind]: { schema: z.ZodType<IstioSpecs[K]>; check: (s: IstioSpecs[K]) => PathIssue[] } };

const ISTIO: SpecSchemas = {
  VirtualService: { schema: virtualServiceSpec, check: checkVirtualService },
  DestinationRule: { schema: destinationRuleSpec, check: checkDestinationRule },
  Gateway: { schema: gatewaySpec, check: checkGateway },
  ServiceEntry: { schema: serviceEntrySpec, check: checkServiceEntry },
  Sidecar: { schema: sidecarSpec, check: checkSidecar },
  WorkloadEntry: { schema: workloadEntry, check: checkWorkloadEntry },
  AuthorizationPolicy: { schema: authorizationPolicySpec, check: checkAuthorizationPolicy },
  PeerAuthentication: { schema: peerAuthenticationSpec, check: checkPeerAuthentication },
  EnvoyFilter: { schema: envoyFilterSpec, check: checkEnvoyFilter },
};

/** What validating one Istio spec gives. */
export interface IstioSpecResult<S> {
  /** The spec, when it passes Istio's validation (what istiod translates). */
  spec?: S;
  /**
   * The spec of an object that fails Istio's validation but could still be read (a proto message with the
   * fields as written, missing ones at their zero value): what `istioctl analyze` analyzes on files, and what
   * istiod never translates (its validating webhook rejects the object). Set only when `spec` is not.
   */
  rejected?: S;
  issues: PathIssue[];
  warnings: PathIssue[];
}

/**
 * Validates an Istio spec. Unknown fields are warnings, not errors: they are reported (with their path)
 * and dropped, and the rest of the object loads — what the Kubernetes API server does by default since
 * 1.25 (`fieldValidation=Warn`, KEP-2885: unknown fields are pruned and returned as warnings). `null` is unset.
 *
 * An object Istio's validation rejects (pkg/config/validation: a missing host, a bad weight…) is still read as
 * `rejected` when its fields have the right types: a field the schema requires but the object leaves out is
 * read at its proto zero value ("", 0, [], {}) and reported, as the proto decoder of `istioctl analyze` reads
 * it. Only a value of the wrong type (which no proto decoder accepts) leaves nothing to read.
 */
export function validateIstioSpec<K extends IstioKind>(kind: K, rawSpec: unknown): IstioSpecResult<IstioSpecs[K]> {
  const entry = ISTIO[kind] as SpecSchemas[K];
  const warnings: PathIssue[] = [];
  const missing: PathIssue[] = [];
  if (rawSpec !== undefined && rawSpec !== null && (typeof rawSpec !== 'object' || Array.isArray(rawSpec)))
    return { issues: [{ path: 'spec', message: `expected object, got ${Array.isArray(rawSpec) ? 'array' : typeof rawSpec}` }], warnings };
  let input: unknown = rawSpec === undefined || rawSpec === null ? {} : stripNulls(rawSpec);
  let copied = false;
  const own = () => {
    if (!copied) input = structuredClone(input); // never edit the caller's (the store's) raw object (stripNulls shares parts of it)
    copied = true;
  };
  let res = entry.schema.safeParse(input, { reportInput: true });
  // Each round prunes the unknown keys zod reported and fills the missing required fields it reported; either
  // can only uncover fields nested below, so the rounds are bounded by the nesting depth (the cap is a safety net).
  for (let round = 0; !res.success && round < 32; round++) {
    const unknown = res.error.issues.filter((i) => i.code === 'unrecognized_keys');
    const absent = res.error.issues.filter(isMissingField);
    if (unknown.length + absent.length === 0) break;
    own();
    for (const i of unknown) {
      const parent = at(input, i.path);
      for (const key of (i as { keys: string[] }).keys) {
        warnings.push({ path: formatPath('spec', [...i.path, key]), message: `unknown field "${key}" (ignored)` });
        if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[key];
      }
    }
    for (const i of absent) {
      const parent = at(input, i.path.slice(0, -1));
      const key = i.path[i.path.length - 1];
      const zero = ZERO[(i as { expected?: string }).expected ?? ''];
      if (!parent || typeof parent !== 'object' || key === undefined || zero === undefined) continue;
      (parent as Record<PropertyKey, unknown>)[key] = zero();
      missing.push({
        path: formatPath('spec', i.path),
        message: `required field missing (expected ${(i as { expected?: string }).expected})`,
      });
    }
    res = entry.schema.safeParse(input, { reportInput: true });
  }
  if (!res.success) return { issues: zodIssues(res.error, 'spec'), warnings };
  // A required field left out is reported once: by Istio's own check when it has one for that field; the
  // checks of the fields inside a message left out (read as an empty message) say nothing more.
  const absentMessages = missing.filter((m) => m.message.endsWith('(expected object)')).map((m) => m.path);
  const inside = (i: PathIssue) => absentMessages.some((p) => i.path.startsWith(`${p}.`) || i.path.startsWith(`${p}[`));
  const checked = entry.check(res.data).filter((c) => !inside(c));
  const issues = [...missing.filter((m) => !inside(m) && !checked.some((c) => c.path === m.path)), ...checked];
  return issues.length ? { rejected: res.data, issues, warnings } : { spec: res.data, issues, warnings };
}

/** Proto3 zero values by the type zod expected. */
const ZERO: Record<string, () => unknown> = {
  string: () => '',
  number: () => 0,
  boolean: () => false,
  array: () => [],
  object: () => ({}),
  record: () => ({}),
};

const isMissingField = (i: z.core.$ZodIssue): boolean =>
  i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined && i.path.length > 0;

function at(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

const KUBE: Record<string, z.ZodType> = {
  Service: service,
  Pod: pod,
  EndpointSlice: endpointSlice,
  Deployment: workload,
  ReplicaSet: workload,
  StatefulSet: workload,
  Ingress: ingress,
  IngressClass: ingressClass,
  Secret: secret,
};

/** Validates the fields meshscope reads; `data` is a copy of the object with those fields parsed. */
export function validateKubeBody(kind: string, raw: unknown): { ok: boolean; data?: unknown; issues: PathIssue[] } {
  const schema = KUBE[kind];
  if (!schema) return { ok: true, data: raw, issues: [] };
  const res = schema.safeParse(raw, { reportInput: true });
  if (res.success) return { ok: true, data: res.data, issues: [] };
  return { ok: false, issues: zodIssues(res.error, '') };
}
