// Gateway TLS credentials whose Secret does not exist. istiod keeps the server's filter chain in LDS (it
// references the certificate by SDS name, kubernetes://<credentialName>) but its SDS generator serves
// nothing for a missing Secret (pilot/pkg/xds/sds.go SecretGen.generate: "failed to fetch key and
// certificate", pilot_sds_certificate_errors_total), so Envoy has no certificate for that chain and its TLS
// handshakes fail. The lookup is in the gateway proxy's namespace (model/credentials ParseResourceName).
// Said only when the Secrets are known (a Secret source exists); the Envoy output is left as istiod's.
import type { LoadError, MeshSnapshot, ProxyModel } from '../../../model/mesh';
import { credentialMissing, credentialSecretRef } from '../../../model/secrets';
import { configError } from '../../configError';
import type { MergedGateway } from './types';

const TERMINATING = new Set(['SIMPLE', 'MUTUAL', 'OPTIONAL_MUTUAL']);

export function missingCredentials(snapshot: MeshSnapshot, proxy: ProxyModel, merged: MergedGateway): LoadError[] {
  const errors: LoadError[] = [];
  if (!snapshot.secrets?.known) return errors;
  for (const { servers } of merged.mergedServers.values())
    for (const g of servers) {
      const tls = g.server.tls;
      if (!tls || !TERMINATING.has(tls.mode ?? 'SIMPLE')) continue;
      const names = tls.credentialNames?.length ? tls.credentialNames : tls.credentialName ? [tls.credentialName] : [];
      const field = tls.credentialNames?.length ? 'credentialNames' : 'credentialName';
      names.forEach((name, i) => {
        if (!credentialMissing(snapshot.secrets, name, proxy.namespace)) return;
        const ref = credentialSecretRef(name, proxy.namespace);
        errors.push(
          configError(
            g.gateway,
            `spec.servers[${g.index}].tls.${field}${field === 'credentialNames' ? `[${i}]` : ''}`,
            `${field} "${name}": Secret ${ref?.namespace}/${ref?.name} not found (looked up in the gateway pod's namespace); ` +
              'istiod serves no certificate for it over SDS, so TLS handshakes on this server fail',
          ),
        );
      });
    }
  return errors;
}
