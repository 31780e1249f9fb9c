// The Gateway API conversion of a snapshot in the shape of istiod's conversion goldens
// (pilot/pkg/config/kube/gateway/testdata/*.yaml.golden: the generated Gateways and VirtualServices with their
// internal.istio.io annotations; *.status.yaml.golden: the status written back), for translator golden cases.
import type { IstioConfig, MeshSnapshot } from '../../model/mesh';

const generated = (c: IstioConfig) =>
  c.meta.annotations['internal.istio.io/gateway-semantics'] === 'gateway' ||
  c.meta.annotations['internal.istio.io/route-semantics'] === 'gateway';

const asObject = (c: IstioConfig) => ({
  apiVersion: c.apiVersion,
  kind: c.kind,
  metadata: { annotations: c.meta.annotations, name: c.meta.name, namespace: c.meta.namespace },
  spec: c.spec,
});

export function gatewayApiGolden(snap: MeshSnapshot) {
  const m = snap.gatewayApi;
  return {
    configs: [...snap.gateways.filter(generated), ...snap.virtualServices.filter(generated)].map(asObject),
    status: {
      gatewayClasses: m?.gatewayClasses ?? [],
      gateways: (m?.gateways ?? []).map(({ origin: _o, ...g }) => g),
      routes: (m?.routes ?? []).map(({ origin: _o, ...r }) => r),
    },
  };
}
