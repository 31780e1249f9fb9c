// Every destination of a VirtualService with its YAML path (Istio analyzers/virtualservice/util.go:
// getRouteDestinations — tcp, tls, then http — and getHTTPMirrorDestinations).
import type { Destination, VirtualServiceSpec } from '../model/istio';

export interface LocatedDestination {
  destination: Destination;
  /** Path of the destination object, e.g. `spec.http[0].route[1].destination`. */
  path: string;
}

export function routeDestinations(spec: VirtualServiceSpec): LocatedDestination[] {
  const out: LocatedDestination[] = [];
  const add = (kind: 'tcp' | 'tls' | 'http', rules: readonly { route?: readonly { destination?: Destination }[] }[] | undefined) =>
    (rules ?? []).forEach((r, i) =>
      (r?.route ?? []).forEach((rd, j) => {
        if (rd?.destination) out.push({ destination: rd.destination, path: `spec.${kind}[${i}].route[${j}].destination` });
      }),
    );
  add('tcp', spec.tcp);
  add('tls', spec.tls);
  add('http', spec.http);
  return out;
}

export function mirrorDestinations(spec: VirtualServiceSpec): LocatedDestination[] {
  const out: LocatedDestination[] = [];
  (spec.http ?? []).forEach((r, i) => {
    if (r?.mirror) out.push({ destination: r.mirror, path: `spec.http[${i}].mirror` });
    (r?.mirrors ?? []).forEach((m, j) => {
      if (m?.destination) out.push({ destination: m.destination, path: `spec.http[${i}].mirrors[${j}].destination` });
    });
  });
  return out;
}
