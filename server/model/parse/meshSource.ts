// Which mesh config a snapshot uses, as istiod picks it (pilot/pkg/bootstrap/mesh.go): the `--mesh-config`
// file when given, else the `mesh` key of ConfigMap `istio` in istiod's namespace `istio-system`, else
// istiod's defaults. Every other ConfigMap stays ignored.
import type { RawInput, RawObject } from '../inputs';
import { MESH_CONFIGMAP_KEY, MESH_CONFIGMAP_NAME, MESH_CONFIGMAP_NAMESPACE } from '../meshConfig';
import type { MeshConfigState, TranslateOptions } from '../mesh';
import { defaultMeshState, meshOptions } from '../meshOptions';
import type { Problem } from '../problem';
import { parseMeshConfig } from './meshConfig';

/** `--mesh-config FILE`: its text and path (read by the caller; the model does no I/O). */
export interface MeshConfigOverride {
  file: string;
  text: string;
}

const CONFIGMAP_OBJECT = `ConfigMap ${MESH_CONFIGMAP_NAMESPACE}/${MESH_CONFIGMAP_NAME}`;

/** The ConfigMap istiod reads its mesh config from (core/v1 ConfigMap `istio` in `istio-system`). */
export function isMeshConfigMap(o: RawObject): boolean {
  if (o.kind !== 'ConfigMap' || o.apiVersion !== 'v1') return false;
  const md = (o.metadata ?? {}) as Record<string, unknown>;
  return md.name === MESH_CONFIGMAP_NAME && md.namespace === MESH_CONFIGMAP_NAMESPACE;
}

function meshText(o: RawObject): { text?: string; problem?: string } {
  const data = o.data;
  if (data === undefined || data === null) return { problem: `no data.${MESH_CONFIGMAP_KEY}: istiod's defaults are used` };
  if (typeof data !== 'object' || Array.isArray(data)) return { problem: 'data must be a map of strings' };
  const text = (data as Record<string, unknown>)[MESH_CONFIGMAP_KEY];
  if (text === undefined || text === null) return { problem: `no data.${MESH_CONFIGMAP_KEY}: istiod's defaults are used` };
  if (typeof text !== 'string') return { problem: `data.${MESH_CONFIGMAP_KEY} must be a string holding the mesh config YAML` };
  return { text };
}

/**
 * Fatal problems of the mesh ConfigMap (unusable YAML): the store then keeps its last good version, as
 * istiod keeps its last good mesh config. Field-level problems are not fatal (see parseMeshConfig).
 */
export function meshConfigMapIssues(o: RawObject): { path: string; message: string }[] {
  const m = meshText(o);
  if (m.text === undefined)
    return m.problem?.startsWith('no data') ? [] : [{ path: 'data', message: m.problem ?? 'invalid mesh ConfigMap' }];
  const parsed = parseMeshConfig(m.text);
  if (parsed.config) return [];
  return parsed.problems.map((p) => ({ path: `data.${MESH_CONFIGMAP_KEY}`, message: p.message }));
}

/** The effective mesh config of a set of inputs, with its located problems. */
export function meshStateOf(
  inputs: readonly RawInput[],
  override: MeshConfigOverride | undefined,
  base: Pick<TranslateOptions, 'domainSuffix' | 'clusterId'>,
): { state: MeshConfigState; problems: Problem[] } {
  if (override) {
    const parsed = parseMeshConfig(override.text, { file: override.file });
    if (!parsed.config) return { state: defaultMeshState(base), problems: parsed.problems };
    return {
      state: { config: parsed.config, origin: { source: 'file', file: override.file }, options: meshOptions(parsed.config, base) },
      problems: parsed.problems,
    };
  }
  const input = inputs.findLast((i) => isMeshConfigMap(i.object));
  if (!input) return { state: defaultMeshState(base), problems: [] };
  const where = {
    object: CONFIGMAP_OBJECT,
    ...(input.origin.file !== undefined ? { file: input.origin.file } : {}),
    ...(input.origin.doc !== undefined ? { doc: input.origin.doc } : {}),
  };
  const origin = { source: 'configmap' as const, ...where };
  const m = meshText(input.object);
  if (m.text === undefined) {
    const problems: Problem[] = [
      { severity: m.problem?.startsWith('no data') ? 'warning' : 'error', message: m.problem ?? '', ...where, path: 'data' },
    ];
    return { state: { ...defaultMeshState(base), origin }, problems };
  }
  const parsed = parseMeshConfig(m.text, { ...where, pathPrefix: `data.${MESH_CONFIGMAP_KEY}` });
  if (!parsed.config) return { state: { ...defaultMeshState(base), origin }, problems: parsed.problems };
  return { state: { config: parsed.config, origin, options: meshOptions(parsed.config, base) }, problems: parsed.problems };
}
