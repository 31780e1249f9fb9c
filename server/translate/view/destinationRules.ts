// DestinationRule lookup as istiod does it for a proxy (model/push_context.go:destinationRule,
// setDestinationRules, mergeDestinationRule; model/sidecar.go:DestinationRule).
import type { DestinationRuleSpec, Subset } from '../../model/istio';
import type { IstioConfig, MeshSnapshot, ProxyModel, TranslateOptions } from '../../model/mesh';
import type { EffectiveDestinationRule } from './types';
import { mostSpecificHost, mostSpecificHostMatch, isWildcard, resolveShortname } from '../../model/host';
import { isVisibleTo, labelsMatch } from './hosts';
import { destinationRulesByNamespace, memoResolvedRules, memoRuleIndex } from './snapshotIndex';

interface IndexedRule {
  config: IstioConfig<'DestinationRule'>;
  /** spec.host resolved relative to the rule's namespace. */
  host: string;
  selector?: Readonly<Record<string, string>>;
}

/** A namespace's rules visible to one proxy namespace: selector-less ones by host, workloadSelector ones apart. */
interface RuleIndex {
  specific: Map<string, IndexedRule[]>;
  wildcard: Map<string, IndexedRule[]>;
  /** Visible rules with a workloadSelector, in snapshot order. */
  selectors: IndexedRule[];
}

function indexRules(rules: readonly IndexedRule[], ns: string, proxyNamespace: string, options: TranslateOptions): RuleIndex {
  const idx: RuleIndex = { specific: new Map(), wildcard: new Map(), selectors: [] };
  for (const r of rules) {
    if (!isVisibleTo(r.config.spec.exportTo ?? [], ns, proxyNamespace, options.defaultDestinationRuleExportTo)) continue;
    if (r.selector) {
      idx.selectors.push(r);
      continue;
    }
    const m = isWildcard(r.host) ? idx.wildcard : idx.specific;
    const l = m.get(r.host);
    if (l) l.push(r);
    else m.set(r.host, [r]);
  }
  return idx;
}

const selectorOf = (c: IstioConfig<'DestinationRule'>) => {
  const m = c.spec.workloadSelector?.matchLabels;
  return m && Object.keys(m).length > 0 ? m : undefined;
};

/**
 * Same-host rules of one namespace merged in creation order (mergeDestinationRule): the oldest rule is the
 * base; later rules add subsets whose names are new and supply the top-level traffic policy only when no
 * earlier rule had one.
 */
export function mergeRules(rules: readonly IndexedRule[]): EffectiveDestinationRule | undefined {
  const first = rules[0];
  if (!first) return undefined;
  const subsets: Subset[] = [];
  const names = new Set<string>();
  let trafficPolicy = undefined as DestinationRuleSpec['trafficPolicy'];
  for (const r of rules) {
    for (const s of r.config.spec.subsets ?? []) {
      if (names.has(s.name)) continue;
      names.add(s.name);
      subsets.push(s);
    }
    if (trafficPolicy === undefined && r.config.spec.trafficPolicy) trafficPolicy = r.config.spec.trafficPolicy;
  }
  const spec: DestinationRuleSpec = { ...first.config.spec, host: first.host };
  if (subsets.length > 0) spec.subsets = subsets;
  else delete spec.subsets;
  if (trafficPolicy) spec.trafficPolicy = trafficPolicy;
  else delete spec.trafficPolicy;
  return { spec, from: rules.map((r) => r.config) };
}

/**
 * Builds the lookup `hostname → rule` for one proxy. `serviceNamespace(host)` gives the namespace of the
 * service the proxy sees for that host (undefined when there is none).
 *
 * Order: (1) the most specific rule of the proxy's own namespace (unless it is the root namespace) visible to it,
 * a rule whose workloadSelector selects the proxy winning over selector-less ones; (2) the most specific rule
 * exported from the service's namespace; (3) the most specific rule exported from the root namespace.
 * Selector rules are namespace-private.
 */
export function destinationRuleLookup(
  snapshot: MeshSnapshot,
  proxy: ProxyModel,
  options: TranslateOptions,
  serviceNamespace: (hostname: string) => string | undefined,
  direction: 'outbound' | 'inbound' = 'outbound',
): (hostname: string) => EffectiveDestinationRule | undefined {
  // Rules grouped by namespace in snapshot order, each namespace's hosts resolved when it is first asked for (a
  // proxy asks for a few namespaces: its own, its services', the root); both kept per snapshot (snapshotIndex.ts).
  const configsByNs = destinationRulesByNamespace(snapshot);
  const rulesOf = (ns: string): readonly IndexedRule[] =>
    memoResolvedRules(snapshot, ns, options.domainSuffix, () =>
      (configsByNs.get(ns) ?? []).map((c): IndexedRule => {
        const sel = selectorOf(c);
        return { config: c, host: resolveShortname(c.spec.host, ns, options.domainSuffix), ...(sel ? { selector: sel } : {}) };
      }),
    );
  const cache = new Map<string, EffectiveDestinationRule | undefined>();

  // The rules of a namespace visible to the proxy's namespace, selector-less ones by host (specific and
  // wildcard, each host's rules in snapshot order), made once per snapshot and namespace pair: a scope's
  // translation asks for each of its hundreds of hosts, and filtering every rule of the namespace per host was
  // quadratic in the services of a namespace (250 at issue 24's 5x mesh).
  const indexes = new Map<string, RuleIndex>();
  const indexOf = (ns: string): RuleIndex => {
    let idx = indexes.get(ns);
    if (!idx) {
      const key = `${ns}\u0000${proxy.namespace}\u0000${options.domainSuffix}\u0000${(options.defaultDestinationRuleExportTo ?? []).join('\u0000')}`;
      idx = memoRuleIndex(snapshot, key, () => indexRules(rulesOf(ns), ns, proxy.namespace, options));
      indexes.set(ns, idx);
    }
    return idx;
  };

  const pick = (ns: string, hostname: string, local: boolean): EffectiveDestinationRule | undefined => {
    const idx = indexOf(ns);
    // A workloadSelector rule selecting this proxy (outbound, own namespace): the general path below.
    const selecting = direction === 'outbound' && local && idx.selectors.some((r) => labelsMatch(r.selector!, proxy.labels));
    if (!selecting) {
      const same = mostSpecificHostMatch(hostname, idx.specific, idx.wildcard);
      return same ? mergeRules(same) : undefined;
    }
    const rules = rulesOf(ns).filter((r) => {
      if (!isVisibleTo(r.config.spec.exportTo ?? [], ns, proxy.namespace, options.defaultDestinationRuleExportTo)) return false;
      // workloadSelector rules are honoured for outbound config only (sidecar.go:DestinationRule)
      if (r.selector) return direction === 'outbound' && local && labelsMatch(r.selector, proxy.labels);
      return true;
    });
    const host = mostSpecificHost(hostname, [...new Set(rules.map((r) => r.host))]);
    if (host === undefined) return undefined;
    const same = rules.filter((r) => r.host === host);
    const selected = same.find((r) => r.selector);
    if (selected) return mergeRules([selected]);
    return mergeRules(same);
  };

  return (hostname: string) => {
    if (cache.has(hostname)) return cache.get(hostname);
    let out: EffectiveDestinationRule | undefined;
    if (proxy.namespace !== options.rootNamespace) out = pick(proxy.namespace, hostname, true);
    const svcNs = serviceNamespace(hostname);
    if (!out && svcNs !== undefined) out = pick(svcNs, hostname, false);
    if (!out) out = pick(options.rootNamespace, hostname, false);
    cache.set(hostname, out);
    return out;
  };
}
