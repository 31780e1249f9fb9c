// The pipeline's translation stages, in order: (1) the proxy kind's translator (server/translate
// translateProxy → TRANSLATORS, chosen by server/model/proxyKinds.ts); (2) post-translation stages on the
// ResourceTable; then the caller encodes it (encodeTable.ts: one list per registered generator, generators.ts).
// Every pipeline path that builds a proxy's full table goes through buildProxyTable (config_dump, the API,
// the CLI, ADS and the shared cache), so a stage added here applies everywhere at once.
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { translateProxy } from '../translate/index';
import type { ResourceTable } from '../translate/types';

/** A proxy's translated table, after every post-translation stage: what gets encoded and served. */
export function buildProxyTable(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): ResourceTable {
  const table = translateProxy(snapshot, proxy, options);
  // ─── SEAM: after translation, before encoding ──────────────────────────────────────────────────────────
  // The EnvoyFilter stage (engineer "envoyfilter") plugs in here: patch `table` (Envoy kinds only:
  // proxyKind(proxy).envoy) and return the patched table. What the stage reads about the proxy must also be in
  // translate/proxyInputs.ts (the shared cache keys translations by it).
  return table;
}
