// The effective mesh config: `/debug/mesh` (istiod's shape: the MeshConfig as JSON) and `GET /api/mesh`
// (what the UI shows: the config, where it came from, the translator options it gives, and its problems).
import type { LoadError, MeshConfigState, TranslateOptions } from '../model/mesh';
import type { MeshConfig, MeshConfigOrigin } from '../model/meshConfig';
import { MESH_CONFIGMAP_NAME, MESH_CONFIGMAP_NAMESPACE } from '../model/meshConfig';
import { type ApiContext, type ApiResult, ok } from './types';

/** `GET /api/mesh` */
export interface MeshConfigResponse {
  version: number;
  origin: MeshConfigOrigin;
  config: MeshConfig;
  /** The TranslateOptions the config gives (what every proxy is translated with). */
  options: TranslateOptions;
  /** Problems of the mesh config (ConfigMap istio-system/istio or the --mesh-config file), located. */
  problems: readonly LoadError[];
}

const CONFIGMAP = `ConfigMap ${MESH_CONFIGMAP_NAMESPACE}/${MESH_CONFIGMAP_NAME}`;

const stateOf = (ctx: ApiContext): MeshConfigState => ctx.snapshot.mesh;

/** istiod's /debug/mesh: the mesh config in force, as MeshConfig JSON. */
export function debugMesh(ctx: ApiContext): ApiResult<MeshConfig> {
  return ok(stateOf(ctx).config);
}

export function meshConfigView(ctx: ApiContext): ApiResult<MeshConfigResponse> {
  const mesh = stateOf(ctx);
  const file = mesh.origin.source === 'file' ? mesh.origin.file : undefined;
  const problems = ctx.snapshot.errors.filter((e) => e.object === CONFIGMAP || (file !== undefined && e.file === file && !e.object));
  return ok({ version: ctx.snapshot.version, origin: mesh.origin, config: mesh.config, options: mesh.options, problems });
}
