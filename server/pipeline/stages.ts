// The pipeline's translation stages, in order: (1) the proxy kind's translator (server/translate
// translateProxy → TRANSLATORS, chosen by server/model/proxyKinds.ts); (2) post-translation stages on the
// ResourceTable; then the caller encodes it (encodeTable.ts: one list per registered generator, generators.ts).
// Every pipeline path that builds a proxy's full table goes through buildProxyTable (config_dump, the API,
// the CLI, ADS and the shared cache), so a stage added here applies everywhere at once.
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { type TranslateMemos, translateProxy } from '../translate/index';
import type { ResourceTable } from '../translate/types';
import { applyEnvoyFilters } from '../envoyfilter/index';

/** A proxy's translated table, after every post-translation stage: what gets encoded and served. */
export function buildProxyTable(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions,
  memos?: TranslateMemos,
): ResourceTable {
  const table = translateProxy(snapshot, proxy, options, memos);
  // ─── SEAM: after translation, before encoding ──────────────────────────────────────────────────────────
  // The EnvoyFilter stage (server/envoyfilter): patches a copy of `table` (Envoy kinds only) and records, per
  // config patch, whether it landed (table.envoyFilters). What it reads about the proxy (labels, namespace,
  // metadata, service targets, the istio-proxy image) is in translate/proxyInputs.ts.
  try {
    const { table: patched, report } = applyEnvoyFilters(table, proxy, { snapshot, rootNamespace: options.rootNamespace });
    return report.length ? { ...patched, envoyFilters: report } : patched;
  } catch (e) {
    // istiod: runtime.HandleCrash — "patch caused panic, so the patches did not take effect".
    const error = {
      severity: 'error' as const,
      message: `EnvoyFilter patches not applied: ${(e as Error).message}`,
      object: `Proxy ${proxy.id}`,
    };
    return { ...table, errors: [...table.errors, error] };
  }
}
