// Mesh config YAML → MeshConfig, as istiod reads it (pkg/config/mesh/mesh.go:ApplyMeshConfig): istiod's
// defaults with the user's fields laid over them (each top-level field replaces the default, except
// `defaultConfig`, which is merged into DefaultProxyConfig). A field istiod does not know is ignored with a
// located warning (protomarshal.ApplyJSON retries with AllowUnknownFields); a field with a bad value is a
// located error and keeps its default (istiod would reject the whole document; meshscope keeps the rest so
// one typo does not silently revert every setting). YAML that does not parse, or is not a map, is fatal:
// the caller keeps the last good mesh config.
import { isMap, LineCounter, parseDocument, type Node } from 'yaml';
import { normalizeDuration } from '../../lib/duration';
import { defaultMeshConfig, type MeshConfig } from '../meshConfig';
import { parseExtensionProviders } from '../extensionProviders';
import type { Problem } from '../problem';

export interface MeshConfigParse {
  /** Undefined when the YAML is unusable (fatal): keep the last good config. */
  config?: MeshConfig;
  problems: Problem[];
}

/** Where the text came from, for located problems. */
export interface MeshConfigLocation {
  file?: string;
  doc?: number;
  /** `ConfigMap istio-system/istio` when the text is its `mesh` key. */
  object?: string;
  /** YAML path prefix of the text inside its object, e.g. `data.mesh`. */
  pathPrefix?: string;
}

type Check = (v: unknown) => { value?: unknown; error?: string };

const MAX_MESH_BYTES = 1 << 20;

const enumOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? { value: v } : { error: `must be one of ${values.join(', ')}` };
const str: Check = (v) => (typeof v === 'string' ? { value: v } : { error: 'must be a string' });
const bool: Check = (v) => (typeof v === 'boolean' ? { value: v } : { error: 'must be true or false' });
const int: Check = (v) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? { value: v } : { error: 'must be a non-negative integer' };
const duration: Check = (v) => {
  const d = normalizeDuration(v);
  return d !== undefined ? { value: d } : { error: `invalid duration ${JSON.stringify(v)}` };
};
const strings: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? { value: [...v] } : { error: 'must be a list of strings' };
const object: Check = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? { value: v } : { error: 'must be a map' });
const list: Check = (v) => (Array.isArray(v) ? { value: v } : { error: 'must be a list' });

/** ValidateMeshConfig's exportTo rule: `*`, `.`, `~` alone, or namespace names (RFC 1123 labels). */
const exportTo: Check = (v) => {
  const r = strings(v);
  if (r.error) return r;
  const l = r.value as string[];
  for (const e of l)
    if (e !== '*' && e !== '.' && e !== '~' && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(e))
      return { error: `invalid exportTo entry ${JSON.stringify(e)}` };
  if (l.includes('~') && l.length > 1) return { error: 'exportTo "~" cannot be combined with other entries' };
  return r;
};

const mode =
  (...values: string[]): Check =>
  (v) => {
    const o = object(v);
    if (o.error) return o;
    const m = (v as Record<string, unknown>).mode ?? values[0];
    return enumOf(...values)(m).error ? { error: `mode must be one of ${values.join(', ')}` } : { value: { mode: m } };
  };

const RETRY_FIELDS: Record<string, Check> = {
  attempts: int,
  perTryTimeout: duration,
  retryOn: str,
  retryRemoteLocalities: bool,
  retryIgnorePreviousHosts: bool,
  backoff: duration,
};

const retry: Check = (v) => {
  const o = object(v);
  if (o.error) return o;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const c = Object.hasOwn(RETRY_FIELDS, k) ? RETRY_FIELDS[k] : undefined;
    if (!c) return { error: `unknown field ${k}` };
    const res = c(val);
    if (res.error) return { error: `${k} ${res.error}` };
    out[k] = res.value;
  }
  return { value: out };
};

const locality: Check = (v) => {
  const o = object(v);
  if (o.error) return o;
  const r = v as Record<string, unknown>;
  if (r.enabled !== undefined && typeof r.enabled !== 'boolean') return { error: 'enabled must be true or false' };
  for (const k of ['distribute', 'failover'] as const)
    if (r[k] !== undefined && !Array.isArray(r[k])) return { error: `${k} must be a list` };
  if (r.failoverPriority !== undefined && strings(r.failoverPriority).error) return { error: 'failoverPriority must be a list of strings' };
  if ((r.distribute as unknown[] | undefined)?.length && (r.failover as unknown[] | undefined)?.length)
    return { error: 'can not simultaneously specify distribute and failover' };
  return { value: r };
};

/** MeshConfig fields (istio.io/api mesh/v1alpha1): typed ones are checked, the others kept as written. */
const FIELDS: Record<string, Check> = {
  enableTracing: bool,
  accessLogFile: str,
  accessLogEncoding: enumOf('TEXT', 'JSON'),
  accessLogFormat: str,
  enableEnvoyAccessLogService: bool,
  protocolDetectionTimeout: duration,
  ingressService: str,
  ingressControllerMode: enumOf('UNSPECIFIED', 'OFF', 'DEFAULT', 'STRICT'),
  ingressClass: str,
  ingressSelector: str,
  trustDomain: str,
  trustDomainAliases: strings,
  enableAutoMtls: bool,
  outboundTrafficPolicy: mode('ALLOW_ANY', 'REGISTRY_ONLY'),
  inboundTrafficPolicy: mode('PASSTHROUGH', 'LOCALHOST'),
  localityLbSetting: locality,
  defaultConfig: object,
  rootNamespace: str,
  proxyListenPort: int,
  proxyInboundListenPort: int,
  proxyHttpPort: int,
  connectTimeout: duration,
  defaultServiceExportTo: exportTo,
  defaultVirtualServiceExportTo: exportTo,
  defaultDestinationRuleExportTo: exportTo,
  dnsRefreshRate: duration,
  defaultHttpRetryPolicy: retry,
  tcpKeepalive: object,
  h2UpgradePolicy: enumOf('DO_NOT_UPGRADE', 'UPGRADE'),
  inboundClusterStatName: str,
  outboundClusterStatName: str,
  certificates: list,
  thriftConfig: object,
  serviceSettings: list,
  enablePrometheusMerge: bool,
  verifyCertificateAtClient: bool,
  ca: object,
  extensionProviders: list,
  defaultProviders: object,
  discoverySelectors: list,
  pathNormalization: object,
  defaultConfigSources: list,
  configSources: list,
  meshMTLS: object,
  tlsDefaults: object,
  caCertificates: list,
  serviceScopeConfigs: list,
};

/** The 1-based line of a YAML path inside the text, when the node is found. */
function lineOf(doc: ReturnType<typeof parseDocument>, lc: LineCounter, path: (string | number)[]): number | undefined {
  const node = doc.getIn(path, true) as Node | undefined;
  const keyNode =
    path.length === 1 && isMap(doc.contents)
      ? doc.contents.items.find((i) => (i.key as { value?: unknown })?.value === path[0])
      : undefined;
  const at = (keyNode?.key as Node | undefined)?.range?.[0] ?? node?.range?.[0];
  return at === undefined ? undefined : lc.linePos(at).line;
}

/** ApplyMeshConfigDefaults: the user's YAML over istiod's defaults. */
export function parseMeshConfig(text: string, where: MeshConfigLocation = {}): MeshConfigParse {
  const problems: Problem[] = [];
  const problem = (severity: Problem['severity'], message: string, path?: string, line?: number): void => {
    const p: Problem = { severity, message: line !== undefined ? `${message} (mesh config line ${line})` : message };
    const full = [where.pathPrefix, path].filter(Boolean).join('.');
    if (full) p.path = full;
    if (where.object) p.object = where.object;
    if (where.file !== undefined) p.file = where.file;
    if (where.doc !== undefined) p.doc = where.doc;
    problems.push(p);
  };
  if (text.length > MAX_MESH_BYTES) {
    problem('error', `mesh config is larger than ${MAX_MESH_BYTES} bytes; the last good mesh config is kept`);
    return { problems };
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line;
    problem('error', `mesh config is not valid YAML: ${e.message.split('\n')[0]}; the last good mesh config is kept`, undefined, line);
    return { problems };
  }
  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  const config = defaultMeshConfig();
  if (raw === null || raw === undefined) return { config, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problem('error', 'mesh config must be a YAML map of MeshConfig fields; the last good mesh config is kept');
    return { problems };
  }
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const line = lineOf(doc, lc, [key]);
    // Own fields only: `toString`, `constructor` or `__proto__` in the YAML are unknown fields, not methods.
    const check = Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
    if (!check) {
      problem('warning', `unknown MeshConfig field ${key} (ignored)`, key, line);
      continue;
    }
    // null is unset: the default stays (proto3 JSON).
    if (value === null) continue;
    const res = check(value);
    if (res.error !== undefined) {
      problem('error', `${key}: ${res.error}; the default ${JSON.stringify(config[key])} is kept`, key, line);
      continue;
    }
    if (key === 'defaultConfig') config.defaultConfig = mergeProxyConfig(config.defaultConfig, res.value as Record<string, unknown>);
    else config[key] = res.value;
    if (key === 'extensionProviders')
      for (const i of parseExtensionProviders(res.value).issues) {
        const segs = i.path.split('.').filter(Boolean);
        const at = i.index < 0 ? [key] : [key, i.index, ...segs];
        const where = i.index < 0 ? key : `${key}[${i.index}]${segs.length ? `.${segs.join('.')}` : ''}`;
        problem('error', `${where}: ${i.message}`, where, lineOf(doc, lc, at) ?? lineOf(doc, lc, [key, i.index]) ?? line);
      }
  }
  return { config, problems };
}

/** applyProxyConfig: the user's ProxyConfig fields replace the defaults' one by one; proxyMetadata maps merge. */
function mergeProxyConfig(base: Record<string, unknown>, user: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base, ...user };
  const meta = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  if (meta(base.proxyMetadata) || meta(user.proxyMetadata))
    out.proxyMetadata = { ...meta(base.proxyMetadata), ...meta(user.proxyMetadata) };
  return out;
}
