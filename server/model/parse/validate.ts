// Validation of one object body: zod schema (exact field paths) + Istio webhook checks.
import type { z } from 'zod';
import type { IstioKind, IstioSpecs } from '../istio';
import { stripNulls, zodIssues, type PathIssue } from '../schema/common';
import { checkDestinationRule, checkGateway, checkServiceEntry, checkSidecar } from '../schema/checkOthers';
import { checkVirtualService } from '../schema/checkVirtualService';
import { destinationRuleSpec } from '../schema/destinationRule';
import { gatewaySpec } from '../schema/gateway';
import { endpointSlice, pod, service, workload } from '../schema/kube';
import { serviceEntrySpec, sidecarSpec } from '../schema/serviceEntry';
import { virtualServiceSpec } from '../schema/virtualService';

type SpecSchemas = { [K in IstioKind]: { schema: z.ZodType<IstioSpecs[K]>; check: (s: IstioSpecs[K]) => PathIssue[] } };

const ISTIO: SpecSchemas = {
  VirtualService: { schema: virtualServiceSpec, check: checkVirtualService },
  DestinationRule: { schema: destinationRuleSpec, check: checkDestinationRule },
  Gateway: { schema: gatewaySpec, check: checkGateway },
  ServiceEntry: { schema: serviceEntrySpec, check: checkServiceEntry },
  Sidecar: { schema: sidecarSpec, check: checkSidecar },
};

export function validateIstioSpec<K extends IstioKind>(kind: K, rawSpec: unknown): { spec?: IstioSpecs[K]; issues: PathIssue[] } {
  const entry = ISTIO[kind] as SpecSchemas[K];
  if (rawSpec === undefined || rawSpec === null) return { issues: [{ path: 'spec', message: 'missing spec' }] };
  const res = entry.schema.safeParse(stripNulls(rawSpec), { reportInput: true });
  if (!res.success) return { issues: zodIssues(res.error, 'spec') };
  const issues = entry.check(res.data);
  return issues.length ? { issues } : { spec: res.data, issues };
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
