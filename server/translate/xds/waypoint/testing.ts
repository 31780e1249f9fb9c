// Test inputs: Istio's Bookinfo (../shared/fixtures, loaded as it is) in namespace `bookinfo` enrolled in ambient
// with the waypoint of testdata/bookinfo-waypoint.yaml. What istio-cni does on a cluster — annotate every pod it
// redirects (`ambient.istio.io/redirection: enabled`) — is applied to Bookinfo's Deployments' pod templates here;
// `useWaypoint` adds `istio.io/use-waypoint: waypoint` to the reviews Service (what `istioctl waypoint apply
// --enroll-namespace` does for a namespace, here for one Service). Test code only.
import { join } from 'node:path';
import { loadPaths } from '../../../sources/file/loadPaths';
import type { RawInput } from '../../../model/inputs';
import { buildSnapshot } from '../../../model/snapshot';
import type { MeshSnapshot } from '../../../model/mesh';
import { bookinfo } from '../../../testing/paths';

export const WAYPOINT_YAML = join(import.meta.dirname, 'testdata/bookinfo-waypoint.yaml');
export const ROUTE_90_10 = () => bookinfo('gateway-api/route-reviews-90-10.yaml');

type Obj = Record<string, unknown>;
const meta = (o: Obj): Obj => (o.metadata ?? {}) as Obj;

/** istio-cni's annotation on the pod templates of Deployments in `ns`. */
export function enrollAmbient(inputs: readonly RawInput[], ns: string): RawInput[] {
  return inputs.map((i) => {
    const o = i.object as Obj;
    if (o.kind !== 'Deployment' || meta(o).namespace !== ns) return i;
    const spec = o.spec as Obj;
    const tpl = spec.template as Obj;
    const tmeta = meta(tpl);
    const annotations = { ...((tmeta.annotations ?? {}) as Obj), 'ambient.istio.io/redirection': 'enabled' };
    return { ...i, object: { ...o, spec: { ...spec, template: { ...tpl, metadata: { ...tmeta, annotations } } } } };
  });
}

/** `labels` added to the Service `ns/name`. */
export function labelService(inputs: readonly RawInput[], ns: string, name: string, labels: Record<string, string>): RawInput[] {
  return inputs.map((i) => {
    const o = i.object as Obj;
    if (o.kind !== 'Service' || meta(o).namespace !== ns || meta(o).name !== name) return i;
    return { ...i, object: { ...o, metadata: { ...meta(o), labels: { ...((meta(o).labels ?? {}) as Obj), ...labels } } } };
  });
}

export interface AmbientBookinfoOptions {
  useWaypoint?: boolean;
  extra?: string[];
}

export function ambientBookinfoInputs(o: AmbientBookinfoOptions = {}): RawInput[] {
  const r = loadPaths(
    [bookinfo('platform/bookinfo.yaml'), bookinfo('platform/bookinfo-versions.yaml'), ROUTE_90_10(), WAYPOINT_YAML, ...(o.extra ?? [])],
    { namespace: 'bookinfo' },
  );
  if (r.errors.some((e) => e.severity === 'error')) throw new Error(JSON.stringify(r.errors));
  let inputs = enrollAmbient(r.inputs, 'bookinfo');
  if (o.useWaypoint !== false) inputs = labelService(inputs, 'bookinfo', 'reviews', { 'istio.io/use-waypoint': 'waypoint' });
  return inputs;
}

export function ambientBookinfo(o: AmbientBookinfoOptions = {}): MeshSnapshot {
  return buildSnapshot(ambientBookinfoInputs(o), { version: 1, ambient: true });
}

export const WAYPOINT_ID = 'waypoint-5f7c9d8b6-x2x4k.bookinfo';
