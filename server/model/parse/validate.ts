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
import { serviceEntrySpec, sidecarSpec, workloadEntry } from '../schema/serviceEntry';
import { checkWorkloadEntry } from '../schema/checkWorkloadEntry';
import { virtualServiceSpec } from '../schema/virtualService';

type SpecSchemas = { [K in IstioKind]: { schema: z.ZodType<IstioSpecs[K]>; check: (s: IstioSpecs[K]) => PathIssue[] } };

const ISTIO: SpecSchemas = {
  VirtualService: { schema: virtualServiceSpec, check: checkVirtualService },
  DestinationRule: { schema: destinationRuleSpec, check: checkDestinationRule },
  Gateway: { schema: gatewaySpec, check: checkGateway },
  ServiceEntry: { schema: serviceEntrySpec, check: checkServiceEntry },
  Sidecar: { schema: sidecarSpec, check: checkSidecar },
  WorkloadEntry: { schema: workloadEntry, check: checkWorkloadEntry },
  PeerAuthentication: { schema: peerAuthenticationSpec, check: checkPeerAuthentication },
};

/**
 * Validates an Istio spec. Unknown fields are warnings, not errors: they are reported (with their path)
 * and dropped, and the rest of the object loads — what the Kubernetes API server does by default since
 * 1.25 (`fieldValidation=Warn`, KEP-2885: unknown fields are pruned and returned as warnings).
 */
export function validateIstioSpec<K extends IstioKind>(
  kind: K,
  rawSpec: unknown,
): { spec?: IstioSpecs[K]; issues: PathIssue[]; warnings: PathIssue[] } {
  const entry = ISTIO[kind] as SpecSchemas[K];
  const warnings: PathIssue[] = [];
  if (rawSpec === undefined || rawSpec === null) return { issues: [{ path: 'spec', message: 'missing spec' }], warnings };
  const input = stripNulls(rawSpec);
  let res = entry.schema.safeParse(input, { reportInput: true });
  for (let round = 0; !res.success && round < 4; round++) {
    const unknown = res.error.issues.filter((i) => i.code === 'unrecognized_keys');
    if (unknown.length === 0) break;
    for (const i of unknown) {
      const parent = at(input, i.path);
      for (const key of (i as { keys: string[] }).keys) {
        warnings.push({ path: formatPath('spec', [...i.path, key]), message: `unknown field "${key}" (ignored)` });
        if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[key];
      }
    }
    res = entry.schema.safeParse(input, { reportInput: true });
  }
  if (!res.success) return { issues: zodIssues(res.error, 'spec'), warnings };
  const issues = entry.check(res.data);
  return issues.length ? { issues, warnings } : { spec: res.data, issues, warnings };
}

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
};

/** Validates the fields meshscope reads; `data` is a copy of the object with those fields parsed. */
export function validateKubeBody(kind: string, raw: unknown): { ok: boolean; data?: unknown; issues: PathIssue[] } {
  const schema = KUBE[kind];
  if (!schema) return { ok: true, data: raw, issues: [] };
  const res = schema.safeParse(raw, { reportInput: true });
  if (res.success) return { ok: true, data: res.data, issues: [] };
  return { ok: false, issues: zodIssues(res.error, '') };
}
