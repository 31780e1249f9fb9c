// evaluate(base, draft, options): the what-if sandbox's engine (issue #9 §1). Pure: same inputs, same
// output; no I/O, no clock. The base is the live snapshot plus the raw inputs it was built from; the draft
// (YAML text or edits) is overlaid on a copy of those inputs and built into its own snapshot, translated
// with its own cache — evaluating never touches the store, the live cache or what ADS serves.
import type { Finding } from '../analyze/index';
import { optionsOf, type MeshSnapshot, type TranslateOptions } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { createCache } from '../pipeline/cache';
import type { ProxyResources, ResourceCache } from '../pipeline/proxyResources';
import type { RawInput } from '../sources/types';
import { blastRadius } from './blastRadius';
import { runChecks, runContracts } from './checks';
import { nodeAt, parseDraft, type ParsedDraft } from './draft';
import { withEnvoyJson } from './envoyJson';
import { compareFindings } from './findings';
import { applyEdits } from './overlay';
import { type BaseParts, translateBoth } from './translateParts';
import { diffProxy } from './diffProxy';
import type { DraftEdit, EvaluateResult, ProxyDiff, RequestCheck, RoutingContract, SandboxProblem } from './types';

export interface SandboxBase {
  snapshot: MeshSnapshot;
  /** The raw inputs `snapshot` was built from (Store.inputs()). */
  inputs: readonly RawInput[];
  /** The live resource cache (read, and filled with live translations only). */
  cache?: ResourceCache;
  /** The live findings, when the caller keeps them. */
  findings?: readonly Finding[];
  /** Live-side translations reused across evaluations (translateParts.ts BaseParts); the caller owns it. */
  parts?: BaseParts;
}

export interface EvaluateOptions {
  options?: TranslateOptions;
  /** Proxies to return full semantic diffs for (every changed proxy when absent and at most `maxDiffs`). */
  proxies?: readonly string[];
  requests?: readonly RequestCheck[];
  contracts?: readonly RoutingContract[];
  /** Default 20. */
  maxDiffs?: number;
  /** Default 200 proxies per side. */
  maxTranslate?: number;
  /** Run the analyzers (default true). */
  findings?: boolean;
}

export interface Evaluation {
  result: EvaluateResult;
  /** The overlay snapshot (for apply and for callers that render more of it). */
  draft: MeshSnapshot;
  parsed?: ParsedDraft;
}

export function evaluate(base: SandboxBase, draft: string | readonly DraftEdit[], opts: EvaluateOptions = {}): Evaluation {
  const options = opts.options ?? optionsOf(base.snapshot);
  const parsed = typeof draft === 'string' ? parseDraft(draft) : undefined;
  const edits = typeof draft === 'string' ? (parsed?.edits ?? []) : draft;
  const overlay = applyEdits(base.inputs, edits);
  const errors: SandboxProblem[] = [...(parsed?.errors ?? []), ...overlay.errors];
  const draftSnap =
    overlay.changed.length === 0
      ? base.snapshot
      : buildSnapshot(overlay.inputs, {
          version: base.snapshot.version,
          domainSuffix: options.domainSuffix,
          // `--mesh-config` replaces the ConfigMap for the draft too.
          ...(base.snapshot.mesh?.origin.source === 'file' ? { meshState: base.snapshot.mesh } : {}),
          // The draft runs under the same istiod profile as the live mesh.
          ...(base.snapshot.ambient ? { ambient: true } : {}),
        });
  // A draft of the mesh ConfigMap (istio-system/istio) changes the mesh config: the draft side uses its options.
  const draftOptions =
    draftSnap === base.snapshot || JSON.stringify(draftSnap.mesh?.config) === JSON.stringify(base.snapshot.mesh?.config)
      ? options
      : { ...optionsOf(draftSnap), domainSuffix: options.domainSuffix, clusterId: options.clusterId };
  // The draft's translations live in a cache of this evaluation only (the draft snapshot reuses the live
  // version number, so it must never meet the live cache).
  const draftCache: ResourceCache = createCache<ProxyResources>(1024);

  const radius = blastRadius({
    base: base.snapshot,
    draft: draftSnap,
    changed: overlay.changed,
    options,
    draftOptions,
    maxTranslate: opts.maxTranslate ?? 200,
    ...(base.parts ? { baseParts: base.parts } : {}),
  });

  const locate = (doc: number, path: string | undefined) => {
    const d = parsed?.docs.find((x) => x.doc === doc);
    const node = d ? nodeAt(d.node, path) : null;
    return node?.range && parsed ? parsed.position(node.range[0]) : undefined;
  };
  // Problems the draft snapshot found in draft objects (cross-object checks of the model, e.g. ServiceEntry
  // addresses), located in the draft; those of the live inputs are the live view's business.
  const known = new Set(errors.map((e) => `${e.object}\u0000${e.path}\u0000${e.message}`));
  for (const e of draftSnap === base.snapshot ? [] : draftSnap.errors) {
    if (e.file !== 'draft' || e.doc === undefined) continue;
    const p: SandboxProblem = { level: e.severity, message: e.message, doc: e.doc, ...locate(e.doc, e.path) };
    if (e.object) p.object = e.object;
    if (e.path) p.path = e.path;
    if (!known.has(`${p.object}\u0000${p.path}\u0000${p.message}`)) errors.push(p);
  }

  const findings =
    opts.findings === false ? [] : compareFindings(base.snapshot, draftSnap, options, locate, base.findings ?? undefined, draftOptions);
  const live = { snapshot: base.snapshot, options, ...(base.cache ? { cache: base.cache } : {}) };
  const next = { snapshot: draftSnap, options: draftOptions, cache: draftCache };
  const checks = runChecks(live, next, opts.requests ?? []);
  const contracts = opts.contracts?.length ? runContracts(next, opts.contracts) : undefined;

  const maxDiffs = opts.maxDiffs ?? 20;
  const wanted = opts.proxies ?? (radius.diffs.size <= maxDiffs ? [...radius.diffs.keys()] : []);
  const diffs: ProxyDiff[] = [];
  const unverified = new Set(radius.entries.filter((e) => e.unverified).map((e) => e.proxy));
  for (const id of wanted) {
    let d = radius.diffs.get(id);
    // A proxy asked for by name that was over the translation limit is translated now (the list is bounded).
    if (!d && unverified.has(id)) {
      const both = translateBoth(base.snapshot, draftSnap, id, options, false, undefined, draftOptions);
      d = diffProxy(id, both.before, both.after)?.diff;
    }
    if (d) diffs.push(withEnvoyJson(d));
  }
  const result: EvaluateResult = {
    errors,
    edits: overlay.applied,
    blastRadius: radius.entries,
    diffs,
    findings,
    checks,
    ...(contracts ? { contracts } : {}),
    stats: { proxies: draftSnap.proxies.length, translated: radius.translated, candidates: radius.candidates },
  };
  return { result, draft: draftSnap, ...(parsed ? { parsed } : {}) };
}
