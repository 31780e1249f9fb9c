// Raw inputs → validated, typed objects, sorted into kinds. Never throws: every problem becomes a
// located LoadError and the offending object is dropped, while everything else still loads.
import type { IstioKind, IstioSpecs } from '../istio';
import type { IstioConfig, LoadError, ObjectMeta, Origin } from '../mesh';
import type { RawInput, RawObject } from '../inputs';
import { objectMeta } from '../schema/kube';
import {
  CLUSTER_SCOPED_KINDS,
  IGNORED_KINDS,
  KUBE_KINDS,
  isIstioKind,
  istioGroupOf,
  istioVersionsOf,
  objectKey,
  splitApiVersion,
} from '../schema/kinds';
import { stripNulls, type PathIssue } from '../schema/common';
import { notTranslated } from './rejected';
import { unknownFields } from './unknownFields';
import { isMeshConfigMap, meshConfigMapIssues } from './meshSource';
import { validateIstioSpec, validateKubeBody } from './validate';
import type { KubeEndpointSlice, KubePod, KubeService, KubeWorkload } from '../schema/kube';
import type { KubeIngress, KubeIngressClass, KubeSecret } from '../schema/ingress';
import { redactSecret } from '../secrets';
import { GATEWAY_API_VERSIONS, gatewayApiSpecIssues, type RawGwObject } from '../gatewayapi/parse';
import { GATEWAY_API_GROUP, type GatewayApiKind, isGatewayApiKind } from '../gatewayapi/types';

export interface KubeObject<T> {
  kind: string;
  apiVersion: string;
  meta: ObjectMeta;
  body: T;
  origin: Origin;
}

export interface ParsedInputs {
  namespaces: KubeObject<unknown>[];
  nodes: KubeObject<unknown>[];
  services: KubeObject<KubeService>[];
  pods: KubeObject<KubePod>[];
  endpointSlices: KubeObject<KubeEndpointSlice>[];
  workloads: KubeObject<KubeWorkload>[];
  ingresses: KubeObject<KubeIngress>[];
  ingressClasses: KubeObject<KubeIngressClass>[];
  /** Metadata and type only (redacted on entry). */
  secrets: KubeObject<KubeSecret>[];
  istio: { [K in IstioKind]: IstioConfig<K>[] };
  /** Istio objects that fail Istio's validation but could be read: analyzed, never translated (./rejected). */
  rejected: IstioConfig[];
  /** Gateway API objects (spec not yet checked: ../gatewayapi/parse does that). */
  gatewayApi: RawGwObject[];
  errors: LoadError[];
}

/** `group/version/kind/namespace/name` of a raw object (the store's identity), or undefined without apiVersion, kind or name. */
export function rawKey(o: RawObject): string | undefined {
  if (!hasIdentity(o)) return undefined;
  const md = o.metadata as Record<string, unknown>;
  return objectKey(
    o.apiVersion as string,
    o.kind as string,
    typeof md.namespace === 'string' ? md.namespace : undefined,
    md.name as string,
  );
}

/** Whether rawKey(o) is defined (apiVersion, kind and metadata.name are strings), without making the key. */
export function hasIdentity(o: RawObject): boolean {
  const md = o.metadata && typeof o.metadata === 'object' ? (o.metadata as Record<string, unknown>) : undefined;
  return typeof o.apiVersion === 'string' && typeof o.kind === 'string' && typeof md?.name === 'string';
}

/** The identity of a raw input: its object's rawKey. */
export const inputKey = (input: RawInput): string | undefined => rawKey(input.object);

/** Synthetic creation time for the i-th input without one: increasing in input order, deterministic. */
export function syntheticTimestamp(index: number): string {
  return new Date(Date.UTC(1970, 0, 1) + index * 1000).toISOString().replace('.000Z', 'Z');
}

type Classified =
  | { type: 'istio'; kind: IstioKind }
  | { type: 'kube'; kind: string }
  | { type: 'gatewayApi'; kind: GatewayApiKind }
  | { type: 'ignored' }
  | { type: 'unknown'; kind: string }
  | { type: 'invalid'; issue: PathIssue };

function classify(raw: RawObject): Classified {
  if (typeof raw.kind !== 'string' || raw.kind === '') return { type: 'invalid', issue: { path: 'kind', message: 'missing kind' } };
  if (typeof raw.apiVersion !== 'string' || raw.apiVersion === '')
    return { type: 'invalid', issue: { path: 'apiVersion', message: 'missing apiVersion' } };
  const kind = raw.kind;
  const { group, version } = splitApiVersion(raw.apiVersion);
  if (IGNORED_KINDS.has(kind)) return { type: 'ignored' };
  if (isIstioKind(kind) && group === istioGroupOf(kind)) {
    const versions = istioVersionsOf(kind);
    if (!versions.includes(version))
      return {
        type: 'invalid',
        issue: {
          path: 'apiVersion',
          message: `unsupported apiVersion ${raw.apiVersion} (expected ${group}/${versions.slice(0, -1).join(', ')} or ${versions.at(-1)})`,
        },
      };
    return { type: 'istio', kind };
  }
  if (group === GATEWAY_API_GROUP && isGatewayApiKind(kind)) {
    if (!GATEWAY_API_VERSIONS[kind].includes(version))
      return {
        type: 'invalid',
        issue: {
          path: 'apiVersion',
          message: `unsupported apiVersion ${raw.apiVersion} for ${kind} (expected ${GATEWAY_API_VERSIONS[kind].join(', ')})`,
        },
      };
    return { type: 'gatewayApi', kind };
  }
  const kubeGroup = KUBE_KINDS[kind];
  if (kubeGroup !== undefined && kubeGroup === group) return { type: 'kube', kind };
  // A known kind name in another group (e.g. the Gateway API's Gateway) is named Kind.group, like kubectl does.
  const known = isIstioKind(kind) || KUBE_KINDS[kind] !== undefined;
  return { type: 'unknown', kind: known ? `${kind}.${group || 'core'}` : kind };
}

const describeObject = (kind: string, ns: string | undefined, name: string | undefined): string =>
  `${kind} ${ns ? `${ns}/` : ''}${name ?? '<unnamed>'}`;

interface MetaResult {
  meta?: ObjectMeta;
  issues: PathIssue[];
}

function parseMeta(raw: RawObject, kind: string, index: number): MetaResult {
  const res = objectMeta.safeParse(raw.metadata ?? {}, { reportInput: true });
  if (!res.success) {
    return {
      issues: res.error.issues.map((i) => ({
        path: ['metadata', ...i.path.map(String)].join('.'),
        message: i.code === 'invalid_type' && (i as { input?: unknown }).input === undefined ? 'required field missing' : i.message,
      })),
    };
  }
  const m = res.data;
  const ts = m.creationTimestamp;
  if (ts !== undefined && Number.isNaN(Date.parse(ts)))
    return { issues: [{ path: 'metadata.creationTimestamp', message: `invalid timestamp "${ts}"` }] };
  const meta: ObjectMeta = {
    name: m.name,
    namespace: CLUSTER_SCOPED_KINDS.has(kind) ? '' : m.namespace || 'default',
    labels: m.labels ?? {},
    annotations: m.annotations ?? {},
    creationTimestamp: ts ?? syntheticTimestamp(index),
  };
  if (m.resourceVersion !== undefined) meta.resourceVersion = m.resourceVersion;
  if (m.uid !== undefined) meta.uid = m.uid;
  return { meta, issues: [] };
}

/** Validates one raw object the way the snapshot will; used by the store to keep last-good versions. */
export function validateRaw(input: RawObject): PathIssue[] {
  const raw = stripNulls(input);
  if (isMeshConfigMap(raw)) return meshConfigMapIssues(raw);
  const c = classify(raw);
  if (c.type === 'invalid') return [c.issue];
  if (c.type !== 'istio' && c.type !== 'kube' && c.type !== 'gatewayApi') return [];
  const meta = parseMeta(raw, c.kind, 0);
  if (!meta.meta) return meta.issues;
  if (c.type === 'gatewayApi') return gatewayApiSpecIssues(c.kind, raw.spec);
  return c.type === 'istio' ? validateIstioSpec(c.kind, raw.spec).issues : validateKubeBody(c.kind, raw).issues;
}

/** Where one parsed input goes in ParsedInputs (at most one place), and its located errors. */
export type ParsedBucket = Exclude<keyof ParsedInputs, 'istio' | 'rejected' | 'errors'> | 'istio';
export interface ParsedOne {
  errors: LoadError[];
  /** The typed object and its list (`istio`: the list of its kind). */
  item?: { bucket: ParsedBucket; obj: KubeObject<unknown> | IstioConfig | RawGwObject };
  /** An Istio object kept for analysis only (./rejected). */
  rejected?: IstioConfig;
  /** An unknown kind's name (reported once per kind by parseInputs). */
  unknown?: string;
  /** meta.creationTimestamp came from the input's index (syntheticTimestamp), not from the object. */
  synthetic: boolean;
}

/**
 * Parses one raw input at position `index` of the input list. Pure: depends on the input object and, only
 * when it has no creationTimestamp (`synthetic`), on `index`; callers may cache the result per input object
 * and re-stamp it for another index with `restamp`.
 */
export function parseOne(input: RawInput, index: number): ParsedOne {
  const out: ParsedOne = { errors: [], synthetic: false };
  const raw = stripNulls(redactSecret(input.object));
  const md = (raw.metadata && typeof raw.metadata === 'object' ? raw.metadata : {}) as Record<string, unknown>;
  const rawName = typeof md.name === 'string' ? md.name : undefined;
  const rawNs = typeof md.namespace === 'string' ? md.namespace : undefined;
  const fail = (kind: string, issues: PathIssue[], ns = rawNs, severity: LoadError['severity'] = 'error') => {
    for (const issue of issues) {
      const e: LoadError = { severity, message: issue.message, object: describeObject(kind, ns, rawName) };
      if (issue.path) e.path = issue.path;
      out.errors.push(locate(e, input.origin));
    }
  };
  const c = classify(raw);
  if (c.type === 'ignored') return out;
  if (c.type === 'invalid') {
    fail(typeof raw.kind === 'string' ? raw.kind : '<no kind>', [c.issue]);
    return out;
  }
  if (c.type === 'unknown') {
    out.unknown = c.kind;
    return out;
  }
  const { meta, issues } = parseMeta(raw, c.kind, index);
  if (!meta) {
    fail(c.kind, issues);
    return out;
  }
  out.synthetic = (md.creationTimestamp ?? undefined) === undefined;
  const apiVersion = raw.apiVersion as string;
  if (c.type === 'gatewayApi') {
    const obj: RawGwObject = { kind: c.kind, apiVersion, meta, spec: raw.spec, origin: { ...input.origin } };
    const addresses = c.kind === 'Gateway' ? statusAddresses(raw.status) : undefined;
    if (addresses) obj.statusAddresses = addresses;
    out.item = { bucket: 'gatewayApi', obj };
    return out;
  }
  fail(c.kind, unknownFields(c.kind, raw), meta.namespace || undefined, 'warning');
  if (c.type === 'istio') {
    const res = validateIstioSpec(c.kind, raw.spec);
    fail(c.kind, res.warnings, meta.namespace, 'warning');
    if (!res.spec) {
      fail(c.kind, res.issues, meta.namespace);
      // Kept for analysis when readable, never translated: istiod's validating webhook would reject it (./rejected).
      if (res.rejected) out.rejected = { kind: c.kind, apiVersion, meta, spec: res.rejected, origin: { ...input.origin } } as IstioConfig;
      out.errors.push(locate(notTranslated(c.kind, meta, res.issues.length, res.rejected !== undefined), input.origin));
      return out;
    }
    const cfg: IstioConfig = { kind: c.kind, apiVersion, meta, spec: res.spec as never, origin: { ...input.origin } };
    const conditions = statusConditions(raw.status);
    if (conditions) cfg.conditions = conditions;
    out.item = { bucket: 'istio', obj: cfg };
    return out;
  }
  const res = validateKubeBody(c.kind, raw);
  if (!res.ok) {
    fail(c.kind, res.issues, meta.namespace || undefined);
    return out;
  }
  const obj = { kind: c.kind, apiVersion, meta, body: res.data as never, origin: { ...input.origin } };
  out.item = { bucket: KUBE_BUCKETS[c.kind] ?? 'workloads', obj };
  return out;
}

const KUBE_BUCKETS: Readonly<Record<string, ParsedBucket>> = {
  Namespace: 'namespaces',
  Node: 'nodes',
  Service: 'services',
  Pod: 'pods',
  EndpointSlice: 'endpointSlices',
  Ingress: 'ingresses',
  IngressClass: 'ingressClasses',
  Secret: 'secrets',
};

/** `one` (parsed at another index) as parsed at `index`: only a synthetic creation time differs. */
export function restamp(one: ParsedOne, index: number): ParsedOne {
  if (!one.synthetic) return one;
  const ts = syntheticTimestamp(index);
  const at = <T extends { meta: ObjectMeta }>(o: T): T =>
    o.meta.creationTimestamp === ts ? o : { ...o, meta: { ...o.meta, creationTimestamp: ts } };
  const out: ParsedOne = { ...one };
  if (one.item) out.item = { bucket: one.item.bucket, obj: at(one.item.obj) };
  if (one.rejected) out.rejected = at(one.rejected);
  return out;
}

/**
 * Raw inputs → typed objects by kind. `parse` gives each input's ParsedOne (default: parseOne; a caller that
 * keeps results per input object passes its cache, see ../snapshotCache).
 */
export function parseInputs(inputs: readonly RawInput[], parse: (input: RawInput, index: number) => ParsedOne = parseOne): ParsedInputs {
  const out: ParsedInputs = {
    namespaces: [],
    nodes: [],
    services: [],
    pods: [],
    endpointSlices: [],
    workloads: [],
    ingresses: [],
    ingressClasses: [],
    secrets: [],
    istio: {
      VirtualService: [],
      DestinationRule: [],
      Gateway: [],
      ServiceEntry: [],
      Sidecar: [],
      WorkloadEntry: [],
      AuthorizationPolicy: [],
      PeerAuthentication: [],
      EnvoyFilter: [],
    },
    rejected: [],
    gatewayApi: [],
    errors: [],
  };
  const unknown = new Map<string, { count: number; first: RawInput }>();
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index]!;
    const one = parse(input, index);
    for (const e of one.errors) out.errors.push(e);
    if (one.unknown !== undefined) {
      const u = unknown.get(one.unknown);
      if (u) u.count++;
      else unknown.set(one.unknown, { count: 1, first: input });
    }
    if (one.rejected) out.rejected.push(one.rejected);
    const item = one.item;
    if (!item) continue;
    if (item.bucket === 'istio') {
      const cfg = item.obj as IstioConfig;
      (out.istio[cfg.kind] as IstioConfig[]).push(cfg);
    } else (out[item.bucket] as unknown[]).push(item.obj);
  }

  for (const [kind, { count, first }] of unknown) {
    const md = (first.object.metadata ?? {}) as Record<string, unknown>;
    const e: LoadError = {
      severity: 'warning',
      message: `unknown kind ${kind} (ignored${count > 1 ? `, ${count} objects` : ''})`,
      object: describeObject(String(first.object.kind), md.namespace as string | undefined, md.name as string | undefined),
    };
    out.errors.push(locate(e, first.origin));
  }
  return out;
}

/** A Gateway's status.addresses[] (`type` defaulted to IPAddress as the CRD does), or undefined when there are none. */
function statusAddresses(status: unknown): { type: string; value: string }[] | undefined {
  const list = status && typeof status === 'object' ? (status as { addresses?: unknown }).addresses : undefined;
  if (!Array.isArray(list)) return undefined;
  const out: { type: string; value: string }[] = [];
  for (const a of list as { type?: unknown; value?: unknown }[])
    if (a && typeof a === 'object' && typeof a.value === 'string' && a.value !== '')
      out.push({ type: typeof a.type === 'string' && a.type ? a.type : 'IPAddress', value: a.value });
  return out.length ? out : undefined;
}

/** status.conditions[] → { type: status }, or undefined when there are none. */
function statusConditions(status: unknown): Record<string, string> | undefined {
  const list = status && typeof status === 'object' ? (status as { conditions?: unknown }).conditions : undefined;
  if (!Array.isArray(list)) return undefined;
  const out: Record<string, string> = {};
  for (const c of list)
    if (c && typeof c === 'object' && typeof c.type === 'string' && typeof c.status === 'string') out[c.type] = c.status;
  return Object.keys(out).length > 0 ? out : undefined;
}

export function locate(e: LoadError, origin: Origin): LoadError {
  if (origin.file !== undefined) e.file = origin.file;
  if (origin.doc !== undefined) e.doc = origin.doc;
  return e;
}

export type { IstioSpecs };
