// Parsed (redacted) Secrets → the SecretIndex the snapshot carries.
import type { KubeObject } from './parse/objects';
import type { KubeSecret } from './schema/ingress';
import { secretKey, type SecretIndex, type SecretModel } from './secrets';

/** Known when a Secret source watches (kube) or when the inputs hold at least one Secret (files). */
export function buildSecretIndex(secrets: readonly KubeObject<KubeSecret>[], watched: boolean): SecretIndex {
  const byKey = new Map<string, SecretModel>();
  for (const s of secrets)
    byKey.set(secretKey(s.meta.namespace, s.meta.name), {
      name: s.meta.name,
      namespace: s.meta.namespace,
      type: typeof s.body.type === 'string' ? s.body.type : '',
      origin: { ...s.origin },
    });
  return { known: watched || secrets.length > 0, byKey };
}
