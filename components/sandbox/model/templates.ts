// "New" templates: a minimal, valid object of each kind the sandbox edits (Istio networking/v1), with the
// fields people change first. Names and hosts are placeholders to edit.
export type TemplateKind = 'VirtualService' | 'DestinationRule' | 'Gateway' | 'ServiceEntry' | 'Sidecar' | 'WorkloadEntry';

export const TEMPLATES: Record<TemplateKind, string> = {
  VirtualService: `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: my-service
  namespace: default
spec:
  hosts:
  - my-service
  http:
  - route:
    - destination:
        host: my-service
        subset: v1
      weight: 90
    - destination:
        host: my-service
        subset: v2
      weight: 10
`,
  DestinationRule: `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: my-service
  namespace: default
spec:
  host: my-service
  subsets:
  - name: v1
    labels:
      version: v1
  - name: v2
    labels:
      version: v2
`,
  Gateway: `apiVersion: networking.istio.io/v1
kind: Gateway
metadata:
  name: my-gateway
  namespace: default
spec:
  selector:
    istio: ingressgateway
  servers:
  - port:
      number: 80
      name: http
      protocol: HTTP
    hosts:
    - "*"
`,
  ServiceEntry: `apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata:
  name: external-api
  namespace: default
spec:
  hosts:
  - api.example.com
  location: MESH_EXTERNAL
  ports:
  - number: 443
    name: https
    protocol: TLS
  resolution: DNS
`,
  Sidecar: `apiVersion: networking.istio.io/v1
kind: Sidecar
metadata:
  name: default
  namespace: default
spec:
  egress:
  - hosts:
    - "./*"
    - "istio-system/*"
`,
  WorkloadEntry: `apiVersion: networking.istio.io/v1
kind: WorkloadEntry
metadata:
  name: vm-1
  namespace: default
spec:
  address: 10.0.0.10
  labels:
    app: my-service
  ports:
    http: 8080
`,
};

export const TEMPLATE_KINDS = Object.keys(TEMPLATES) as TemplateKind[];
