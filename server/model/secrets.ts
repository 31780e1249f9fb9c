// Secrets, metadata and type only. Key material is never read, stored or shown: `redactSecret` is applied
// where objects enter meshscope (file parsing, the store, the snapshot) and keeps only apiVersion, kind,
// metadata, type and immutable — `data` and `stringData` are gone before anything holds the object.
// The index tells gateway translation which credentials exist (istiod's SDS serves nothing for a missing
// Secret: pilot/pkg/xds/sds.go SecretGen.generate, "failed to fetch key and certificate").
import type { SecretIndex } from './mesh';
import type { RawObject } from './inputs';

/** The fields of a Secret meshscope keeps; everything else (data, stringData, unknown fields) is dropped. */
const KEPT = ['apiVersion', 'kind', 'metadata', 'type', 'immutable'] as const;

/** A core/v1 Secret (any apiVersion `v1` object of kind Secret). */
export const isSecretObject = (o: RawObject): boolean => o.kind === 'Secret' && (o.apiVersion === 'v1' || o.apiVersion === undefined);

/** The object with its key material removed when it is a Secret; any other object is returned as it is. */
export function redactSecret<T extends RawObject>(o: T): T {
  if (!isSecretObject(o)) return o;
  const out: RawObject = {};
  for (const k of KEPT) if (o[k] !== undefined) out[k] = o[k];
  const md = o.metadata;
  if (md && typeof md === 'object' && !Array.isArray(md)) {
    // kubectl's last-applied annotation carries the whole object, data included.
    const annotations = (md as Record<string, unknown>).annotations;
    if (annotations && typeof annotations === 'object' && 'kubectl.kubernetes.io/last-applied-configuration' in annotations) {
      const { 'kubectl.kubernetes.io/last-applied-configuration': _dropped, ...rest } = annotations as Record<string, unknown>;
      out.metadata = { ...md, annotations: rest };
    }
  }
  return out as T;
}

export type { SecretIndex, SecretModel } from './mesh';

export const secretKey = (namespace: string, name: string): string => `${namespace}/${name}`;

/**
 * Where a gateway `credentialName` is looked up (model/credentials ParseResourceName): `name` and
 * `kubernetes://name` in the gateway proxy's namespace, `kubernetes://ns/name` / `kubernetes-gateway://ns/name`
 * in `ns`. undefined for credentials that are not Secrets (`builtin://`, `configmap://`, `sds://`, file paths).
 */
export function credentialSecretRef(credentialName: string, proxyNamespace: string): { namespace: string; name: string } | undefined {
  let rest = credentialName;
  for (const scheme of ['kubernetes://', 'kubernetes-gateway://']) if (rest.startsWith(scheme)) rest = rest.slice(scheme.length);
  if (rest.includes('://') || rest === '') return undefined;
  const slash = rest.indexOf('/');
  if (slash < 0) return { namespace: proxyNamespace, name: rest };
  return { namespace: rest.slice(0, slash), name: rest.slice(slash + 1) };
}

/** Whether a credential's Secret is known to be missing (false when Secrets are not known at all). */
export function credentialMissing(index: SecretIndex | undefined, credentialName: string, proxyNamespace: string): boolean {
  if (!index?.known) return false;
  const ref = credentialSecretRef(credentialName, proxyNamespace);
  return ref !== undefined && !index.byKey.has(secretKey(ref.namespace, ref.name));
}
