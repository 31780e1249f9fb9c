// TEST-ONLY. Objects shaped like Istio's Bookinfo sample, and a KubeConfig for the fake server.
import { KubeConfig } from '@kubernetes/client-node';

export function kubeConfigFor(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'fake', server: url, skipTLSVerify: true }],
    users: [{ name: 'tester' }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'tester' }],
    currentContext: 'fake',
  });
  return kc;
}

export const namespace = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'istio-injection': 'enabled' } },
});

export const service = (ns: string, name: string, port = 9080) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: {
    name,
    namespace: ns,
    labels: { app: name, service: name },
    managedFields: [{ manager: 'kubectl-client-side-apply', operation: 'Update', apiVersion: 'v1' }],
  },
  spec: { ports: [{ port, name: 'http' }], selector: { app: name } },
});

export const pod = (ns: string, name: string, app: string, ip: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns, labels: { app, version: 'v1' }, annotations: { 'sidecar.istio.io/status': '{}' } },
  spec: {
    containers: [
      { name: app, image: `docker.io/istio/examples-bookinfo-${app}-v1:1.20.3` },
      { name: 'istio-proxy', image: 'proxyv2' },
    ],
  },
  status: { podIP: ip, podIPs: [{ ip }], phase: 'Running' },
});

export const virtualService = (ns: string, name: string, host: string, subset = 'v1', apiVersion = 'networking.istio.io/v1') => ({
  apiVersion,
  kind: 'VirtualService',
  metadata: { name, namespace: ns },
  spec: { hosts: [host], http: [{ route: [{ destination: { host, subset } }] }] },
});

export const sidecar = (ns: string, name: string) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'Sidecar',
  metadata: { name, namespace: ns },
  spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
});

export const secret = (ns: string, name: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: ns },
  data: { password: 'c2VjcmV0' },
});
