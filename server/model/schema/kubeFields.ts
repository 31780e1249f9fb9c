// The fields of the Kubernetes kinds meshscope reads, as the API server knows them (k8s.io/api core/v1, apps/v1,
// discovery/v1 json names), so a misspelt field is reported — and ignored — the way the API server does with
// `fieldValidation=Warn`. Only the parts of each object meshscope reads are described; below a field not
// described here (volumes, probes, affinity…) nothing is checked.

/** A set of known field names, with the shape of the fields meshscope looks into. */
export interface FieldShape {
  fields: ReadonlySet<string>;
  /** A field holding an object of this shape. */
  objects?: Readonly<Record<string, FieldShape>>;
  /** A field holding a list of objects of this shape. */
  lists?: Readonly<Record<string, FieldShape>>;
}

const shape = (fields: string[], more: Omit<FieldShape, 'fields'> = {}): FieldShape => ({ fields: new Set(fields), ...more });

const containerPort = shape(['name', 'hostPort', 'containerPort', 'protocol', 'hostIP']);

const container = shape(
  [
    'name',
    'image',
    'command',
    'args',
    'workingDir',
    'ports',
    'envFrom',
    'env',
    'resources',
    'resizePolicy',
    'restartPolicy',
    'restartPolicyRules',
    'volumeMounts',
    'volumeDevices',
    'livenessProbe',
    'readinessProbe',
    'startupProbe',
    'lifecycle',
    'terminationMessagePath',
    'terminationMessagePolicy',
    'imagePullPolicy',
    'securityContext',
    'stdin',
    'stdinOnce',
    'tty',
  ],
  { lists: { ports: containerPort } },
);

const podSpec = shape(
  [
    'volumes',
    'initContainers',
    'containers',
    'ephemeralContainers',
    'restartPolicy',
    'terminationGracePeriodSeconds',
    'activeDeadlineSeconds',
    'dnsPolicy',
    'nodeSelector',
    'serviceAccountName',
    'serviceAccount',
    'automountServiceAccountToken',
    'nodeName',
    'hostNetwork',
    'hostPID',
    'hostIPC',
    'shareProcessNamespace',
    'securityContext',
    'imagePullSecrets',
    'hostname',
    'subdomain',
    'affinity',
    'schedulerName',
    'tolerations',
    'hostAliases',
    'priorityClassName',
    'priority',
    'dnsConfig',
    'readinessGates',
    'runtimeClassName',
    'enableServiceLinks',
    'preemptionPolicy',
    'overhead',
    'topologySpreadConstraints',
    'setHostnameAsFQDN',
    'os',
    'hostUsers',
    'schedulingGates',
    'resourceClaims',
    'resources',
    'hostnameOverride',
  ],
  { lists: { containers: container, initContainers: container } },
);

const podTemplate = shape(['metadata', 'spec'], { objects: { spec: podSpec } });

const workloadSpec = (extra: string[]) =>
  shape(['replicas', 'selector', 'template', 'minReadySeconds', 'revisionHistoryLimit', ...extra], { objects: { template: podTemplate } });

const servicePort = shape(['name', 'protocol', 'appProtocol', 'port', 'targetPort', 'nodePort']);

const serviceSpec = shape(
  [
    'ports',
    'selector',
    'clusterIP',
    'clusterIPs',
    'type',
    'externalIPs',
    'sessionAffinity',
    'loadBalancerIP',
    'loadBalancerSourceRanges',
    'externalName',
    'externalTrafficPolicy',
    'healthCheckNodePort',
    'publishNotReadyAddresses',
    'sessionAffinityConfig',
    'ipFamilies',
    'ipFamilyPolicy',
    'allocateLoadBalancerNodePorts',
    'loadBalancerClass',
    'internalTrafficPolicy',
    'trafficDistribution',
  ],
  { lists: { ports: servicePort } },
);

const endpoint = shape(['addresses', 'conditions', 'hostname', 'targetRef', 'deprecatedTopology', 'nodeName', 'zone', 'hints'], {
  objects: {
    conditions: shape(['ready', 'serving', 'terminating']),
    targetRef: shape(['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']),
  },
});

const TOP = ['apiVersion', 'kind', 'metadata'];

/** Whole-object shapes per kind (top level included). */
export const KUBE_FIELDS: Readonly<Record<string, FieldShape>> = {
  Pod: shape([...TOP, 'spec', 'status'], { objects: { spec: podSpec } }),
  Service: shape([...TOP, 'spec', 'status'], { objects: { spec: serviceSpec } }),
  Deployment: shape([...TOP, 'spec', 'status'], {
    objects: { spec: workloadSpec(['strategy', 'paused', 'progressDeadlineSeconds']) },
  }),
  ReplicaSet: shape([...TOP, 'spec', 'status'], { objects: { spec: workloadSpec([]) } }),
  StatefulSet: shape([...TOP, 'spec', 'status'], {
    objects: {
      spec: workloadSpec([
        'volumeClaimTemplates',
        'serviceName',
        'podManagementPolicy',
        'updateStrategy',
        'persistentVolumeClaimRetentionPolicy',
        'ordinals',
      ]),
    },
  }),
  EndpointSlice: shape([...TOP, 'addressType', 'endpoints', 'ports'], {
    lists: { endpoints: endpoint, ports: shape(['name', 'protocol', 'port', 'appProtocol']) },
  }),
  Namespace: shape([...TOP, 'spec', 'status']),
  Node: shape([...TOP, 'spec', 'status']),
};
