// A Bookinfo-like `reviews` service for the live ADS acceptance tests, written as the Kubernetes and Istio
// YAML a cluster would hold: a Service, one Pod per backend (labels app=reviews, version=v1|v2) whose named
// container port `grpc` is the loopback echo backend's port, one EndpointSlice per pod (each pod listens on
// its own port, and a slice's ports are shared by all its endpoints), a DestinationRule with subsets v1/v2,
// and a VirtualService (header match end-user=jason → v2, else weighted v1/v2).
import { parseAllDocuments } from 'yaml';
import type { RawInput, RawObject } from '../../sources/types';

export interface Backend {
  pod: string;
  version: 'v1' | 'v2';
  port: number;
}

const pod = (b: Backend) => `
apiVersion: v1
kind: Pod
metadata: {name: ${b.pod}, namespace: default, labels: {app: reviews, version: ${b.version}}}
spec:
  containers: [{name: reviews, image: echo, ports: [{name: grpc, containerPort: ${b.port}}]}]
status: {phase: Running, podIP: 127.0.0.1, conditions: [{type: Ready, status: "True"}]}
`;

export const endpointSliceYaml = (b: Backend) => `
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: reviews-${b.pod}, namespace: default, labels: {kubernetes.io/service-name: reviews}}
addressType: IPv4
ports: [{name: grpc, port: ${b.port}, protocol: TCP}]
endpoints:
- addresses: [127.0.0.1]
  conditions: {ready: true}
  targetRef: {kind: Pod, name: ${b.pod}, namespace: default}
`;

export const serviceYaml = `
apiVersion: v1
kind: Service
metadata: {name: reviews, namespace: default}
spec:
  clusterIP: 10.96.0.21
  selector: {app: reviews}
  ports: [{name: grpc, port: 9080, targetPort: grpc}]
`;

export const destinationRuleYaml = `
apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata: {name: reviews, namespace: default}
spec:
  host: reviews
  subsets:
  - {name: v1, labels: {version: v1}}
  - {name: v2, labels: {version: v2}}
`;

/**
 * `redirect` adds a route gRPC cannot serve (a redirect action: grpc-js-xds NACKs the RouteConfiguration,
 * A28 "unsupported action"), as a user could write it for HTTP clients of the same host.
 */
export const virtualServiceYaml = (w1: number, w2: number, opts: { redirect?: boolean } = {}) => `
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata: {name: reviews, namespace: default}
spec:
  hosts: [reviews]
  http:
  - match: [{headers: {end-user: {exact: jason}}}]
    route: [{destination: {host: reviews, subset: v2}}]
  - match: [{headers: {x-fault: {exact: abort}}}]
    fault: {abort: {httpStatus: 503, percentage: {value: 100}}}
    route: [{destination: {host: reviews, subset: v1}}]
${opts.redirect ? '  - match: [{uri: {prefix: /legacy}}]\n    redirect: {uri: /v2}\n' : ''}  - route:
    - {destination: {host: reviews, subset: v1}, weight: ${w1}}
    - {destination: {host: reviews, subset: v2}, weight: ${w2}}
`;

/** The objects of YAML text, with their file/document origin (as the file source reads them). */
export function rawInputs(yamlText: string, file: string): RawInput[] {
  return parseAllDocuments(yamlText).map((d, doc) => ({ object: d.toJS() as RawObject, origin: { source: 'file' as const, file, doc } }));
}

/** The mesh: pods for every backend, EndpointSlices only for `inSlices` (pods not yet ready elsewhere). */
export function reviewsMesh(backends: readonly Backend[], inSlices: readonly Backend[], w1: number, w2: number): string {
  return [serviceYaml, ...backends.map(pod), ...inSlices.map(endpointSliceYaml), destinationRuleYaml, virtualServiceYaml(w1, w2)].join(
    '\n---\n',
  );
}
