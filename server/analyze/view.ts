// The snapshot the analyzers see: the translated objects plus the Istio objects that fail Istio's validation
// (MeshSnapshot.rejectedConfigs), merged back into their kind's list in config order. `istioctl analyze` on
// files analyzes an invalid object as well as reporting it (IST0106), so a finding about it is not lost.
import type { IstioConfig, MeshSnapshot } from '../model/mesh';
import { byCreation } from '../model/snapshot';

/** The snapshot list each Istio kind lives in. */
const LIST_OF: Readonly<Record<string, keyof MeshSnapshot>> = {
  VirtualService: 'virtualServices',
  DestinationRule: 'destinationRules',
  Gateway: 'gateways',
  ServiceEntry: 'serviceEntries',
  Sidecar: 'sidecars',
  WorkloadEntry: 'workloadEntries',
  EnvoyFilter: 'envoyFilters',
};

export function analysisView(snapshot: MeshSnapshot): MeshSnapshot {
  const rejected = snapshot.rejectedConfigs ?? [];
  if (rejected.length === 0) return snapshot;
  const lists = new Map<keyof MeshSnapshot, IstioConfig[]>();
  for (const c of rejected) {
    const field = LIST_OF[c.kind];
    if (!field) continue;
    let list = lists.get(field);
    if (!list) lists.set(field, (list = [...(snapshot[field] as readonly IstioConfig[])]));
    list.push(c);
  }
  const view: Record<string, unknown> = { ...snapshot };
  for (const [field, list] of lists) view[field] = list.sort(byCreation);
  return view as unknown as MeshSnapshot;
}
