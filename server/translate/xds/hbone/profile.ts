// HBONE sending under the ambient profile (pilot/pkg/features/ambient.go): with PILOT_ENABLE_AMBIENT=true istiod's
// EnableHBONESend (PILOT_ENABLE_SENDING_HBONE) and EnableIngressWaypointRouting (ENABLE_INGRESS_WAYPOINT_ROUTING)
// default to true, and both are off without it (registerAmbient). In meshscope the profile is data on the snapshot:
// `snapshot.ambient` is set exactly when the ambient profile is on. A proxy opts out of sending HBONE with the
// `DISABLE_HBONE_SEND` node metadata (pkg/model/proxy.go NodeMetadata.DisableHBONESend). Pure.
import type { MeshSnapshot, ProxyModel } from '../../../model/mesh';

/** features.EnableHBONESend: on exactly under the ambient profile. */
export const hboneSendEnabled = (snapshot: MeshSnapshot): boolean => snapshot.ambient !== undefined;

/** features.EnableIngressWaypointRouting: on exactly under the ambient profile. */
export const ingressWaypointRoutingEnabled = (snapshot: MeshSnapshot): boolean => snapshot.ambient !== undefined;

/** StringBool (strconv.ParseBool's true spellings). */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** NodeMetadata.DisableHBONESend. */
export const disablesHboneSend = (proxy: ProxyModel): boolean => TRUE.has(proxy.metadata?.['DISABLE_HBONE_SEND'] ?? '');
