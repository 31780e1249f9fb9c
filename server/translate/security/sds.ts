// SDS secret references as istiod writes them (pkg/model/authentication.go ConstructSdsSecretConfig;
// security/model/authentication.go ConstructSdsSecretConfigForCredential; model/credentials ToResourceName).
// Shared by gateway server TLS, inbound mTLS chains and outbound cluster TLS.
import type { SdsSecretConfigJson } from '../../gen/envoy/extensions/transport_sockets/tls/v3/secret_pb';

export const SDS_CA_SUFFIX = '-cacert';
const SDS_CLUSTER = 'sds-grpc';

/** credentials.ToResourceName: `builtin://` → `default`; explicit `kubernetes://` etc. kept; else `kubernetes://<name>`. */
export function credentialResourceName(name: string): string {
  if (name.startsWith('builtin://')) return 'default';
  if (name.startsWith('kubernetes://') || name.startsWith('kubernetes-gateway://') || name.startsWith('configmap://')) return name;
  return `kubernetes://${name}`;
}

/** ConstructSdsSecretConfigForCredential (no credential socket): the secret by name on the ADS stream. */
export function credentialSds(name: string): SdsSecretConfigJson {
  if (name === 'builtin://') return agentSds('default');
  if (name === `builtin://${SDS_CA_SUFFIX}`) return agentSds('ROOTCA');
  const n = name.startsWith('sds://') ? name.slice('sds://'.length) : name;
  return { name: credentialResourceName(n), sdsConfig: { ads: {}, resourceApiVersion: 'V3' } };
}

/** constructSdsSecretConfig: a secret served by the local agent over the `sds-grpc` cluster. */
export function agentSds(name: string): SdsSecretConfigJson {
  return {
    name,
    sdsConfig: {
      apiConfigSource: {
        apiType: 'GRPC',
        setNodeOnFirstMessageOnly: true,
        transportApiVersion: 'V3',
        grpcServices: [{ envoyGrpc: { clusterName: SDS_CLUSTER } }],
      },
      ...(name === 'default' || name === 'ROOTCA' ? { initialFetchTimeout: '0s' } : {}),
      resourceApiVersion: 'V3',
    },
  };
}
