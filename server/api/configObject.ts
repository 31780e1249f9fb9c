// One Istio config object by its provenance path (filter_metadata.istio.config, e.g.
// /apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews): the UI's "source rule"
// panel. The object is returned in /debug/configz's Kubernetes shape, plus where it was read from.
import { parseConfigPath } from '../translate/provenance';
import { allConfigs, kubernetesConfig } from './debug';
import { fail, ok, type ApiContext, type ApiResult } from './types';

export interface ConfigObjectResult {
  path: string;
  version: number;
  object: ReturnType<typeof kubernetesConfig>;
  origin: { source: string; file?: string; doc?: number };
}

export function configObject(ctx: ApiContext, path: string | null): ApiResult<ConfigObjectResult | { error: string }> {
  if (!path)
    return fail(
      400,
      'You must provide ?path=/apis/GROUP/VERSION/namespaces/NS/KIND/NAME (a route or cluster filter_metadata.istio.config)',
    );
  const p = parseConfigPath(path);
  if (!p) return fail(400, `"${path}" is not a config path like /apis/networking.istio.io/v1/namespaces/NS/virtual-service/NAME`);
  const c = allConfigs(ctx.snapshot).find((x) => x.kind === p.kind && x.meta.namespace === p.namespace && x.meta.name === p.name);
  if (!c) return fail(404, `${p.kind} ${p.namespace}/${p.name} is not in snapshot v${ctx.snapshot.version}`);
  const o = c.origin;
  return ok({
    path,
    version: ctx.snapshot.version,
    object: kubernetesConfig(c),
    origin: { source: o.source, ...(o.file !== undefined ? { file: o.file } : {}), ...(o.doc !== undefined ? { doc: o.doc } : {}) },
  });
}
