// Istio's envoyfilter.EnvoyPatchAnalyzer (pkg/config/analysis/analyzers/envoyfilter/envoyfilter.go), over every
// EnvoyFilter in config order, one running list of "patched filter names" across them:
// - IST0153 EnvoyFilterUsesAddOperationIncorrectly: ADD on ROUTE_CONFIGURATION or HTTP_ROUTE;
// - IST0154 EnvoyFilterUsesRemoveOperationIncorrectly: REMOVE on ROUTE_CONFIGURATION or HTTP_ROUTE;
// - IST0152 EnvoyFilterUsesReplaceOperationIncorrectly: REPLACE on anything but NETWORK_FILTER, HTTP_FILTER, VIRTUAL_HOST;
// - IST0151 EnvoyFilterUsesRelativeOperation: INSERT_BEFORE/INSERT_AFTER, or a valid REMOVE/REPLACE, in an EnvoyFilter
//   without priority; IST0155 …WithProxyVersion instead when an earlier patch with a proxyVersion named the same
//   filter (the patch value's `name`, else the matched network filter's name).
// A patch without `patch` ends the EnvoyFilter's scan (the analyzer breaks there). The path is Istio's
// util.EnvoyFilterConfigPath (`spec.configPatches[i].patch.value`).
// One finding per code and EnvoyFilter: Istio's field map (pilot/pkg/config/file/store.go BuildFieldPathMap) records
// scalar leaves only, so `patch.value` (a mapping) never gets a line, every such message of one EnvoyFilter has the
// same text, and istioctl's diag.Messages.SortedDedupedCopy keeps one (analyzers_test.go EnvoyFilterUsesReplaceOperation:
// test-replace-3's three valid REPLACEs give one IST0151). The first patch's path is kept.
import type { EnvoyConfigObjectPatch } from '../model/istio';
import type { IstioConfig } from '../model/mesh';
import type { Problem } from '../model/problem';
import { report } from './messages';
import type { Analyzer } from './types';

/** The "instance name" the analyzer compares: value.name (as a proto Value), else the matched filter's name. */
function instanceName(cp: EnvoyConfigObjectPatch): string {
  const value = cp.patch?.value;
  if (!value) return '';
  if (value.name !== undefined) return `value:${JSON.stringify(value.name)}`;
  return cp.match?.listener?.filterChain ? (cp.match.listener.filterChain.filter?.name ?? '') : '';
}

export const envoyPatchAnalyzer: Analyzer = {
  meta: { name: 'envoyfilter.EnvoyPatchAnalyzer', description: 'Checks an envoyFilters ', inputs: ['EnvoyFilter'] },
  analyze(s) {
    const out: Problem[] = [];
    const reported = new Set<string>();
    const push = (p: Problem) => {
      const k = `${p.code}\0${p.object}`;
      if (reported.has(k)) return;
      reported.add(k);
      out.push(p);
    };
    const seen: string[] = [];
    const relative = (ef: IstioConfig<'EnvoyFilter'>, path: string, name: string) => {
      if ((ef.spec.priority ?? 0) !== 0) return;
      push(report(seen.includes(name) ? 'EnvoyFilterUsesRelativeOperationWithProxyVersion' : 'EnvoyFilterUsesRelativeOperation', ef, path));
    };
    for (const ef of s.envoyFilters ?? []) {
      const patches = ef.spec.configPatches ?? [];
      for (let i = 0; i < patches.length; i++) {
        const cp = patches[i];
        if (!cp?.patch) break;
        const path = `spec.configPatches[${i}].patch.value`;
        const name = instanceName(cp);
        const op = cp.patch.operation;
        const rcOrRoute = cp.applyTo === 'ROUTE_CONFIGURATION' || cp.applyTo === 'HTTP_ROUTE';
        if (op === 'ADD') {
          if (rcOrRoute) push(report('EnvoyFilterUsesAddOperationIncorrectly', ef, path));
        } else if (op === 'REMOVE') {
          if (rcOrRoute) push(report('EnvoyFilterUsesRemoveOperationIncorrectly', ef, path));
          else relative(ef, path, name);
        } else if (op === 'REPLACE') {
          if (cp.applyTo !== 'NETWORK_FILTER' && cp.applyTo !== 'HTTP_FILTER' && cp.applyTo !== 'VIRTUAL_HOST')
            push(report('EnvoyFilterUsesReplaceOperationIncorrectly', ef, path));
          else relative(ef, path, name);
        } else if (op === 'INSERT_BEFORE' || op === 'INSERT_AFTER') {
          relative(ef, path, name);
        }
        if (cp.match?.proxy?.proxyVersion) seen.push(name);
      }
    }
    return out;
  },
};
