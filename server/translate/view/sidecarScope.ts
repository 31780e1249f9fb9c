// Sidecar resource scoping (model/push_context.go:getSidecarScope/initSidecarScopes, model/sidecar.go:
// convertIstioListenerToWrapper, selectServices, selectVirtualServices).
import { hostSubsetOf, hostsMatch, resolveShortname } from '../../model/host';
import type { IstioConfig, LoadError, ProxyModel, ServiceModel, TranslateOptions } from '../../model/mesh';
import { configError } from '../configError';
import { labelsMatch } from './hosts';

/**
 * The Sidecar in force for a sidecar proxy: Sidecars of its namespace whose workloadSelector selects it
 * (oldest first), else the selector-less Sidecar of its namespace, else the selector-less Sidecar of the root
 * namespace. Routers never use a Sidecar (DefaultSidecarScopeForGateway).
 */
export function chooseSidecar(
  sidecars: readonly IstioConfig<'Sidecar'>[],
  proxy: ProxyModel,
  rootNamespace: string,
): IstioConfig<'Sidecar'> | undefined {
  if (proxy.type !== 'sidecar') return undefined;
  const inNs = sidecars.filter((s) => s.meta.namespace === proxy.namespace);
  const selected = inNs.find((s) => {
    const sel = s.spec.workloadSelector?.labels;
    return sel !== undefined && Object.keys(sel).length > 0 && labelsMatch(sel, proxy.labels);
  });
  if (selected) return selected;
  const nsDefault = inNs.find((s) => !s.spec.workloadSelector?.labels || Object.keys(s.spec.workloadSelector.labels).length === 0);
  if (nsDefault) return nsDefault;
  return sidecars.find(
    (s) =>
      s.meta.namespace === rootNamespace && (!s.spec.workloadSelector?.labels || Object.keys(s.spec.workloadSelector.labels).length === 0),
  );
}

/** Imported hosts by namespace (`*` for any namespace); a `~` namespace imports nothing. */
export type ImportedHosts = Map<string, string[]>;

/**
 * Parses every egress `hosts` entry `ns/dnsName`: `.` is the proxy's namespace (also for a root-namespace
 * default Sidecar), `*` any namespace, `~` none. Short dnsNames are resolved relative to the Sidecar's namespace.
 */
export function importedHosts(sidecar: IstioConfig<'Sidecar'>, proxyNamespace: string, options: TranslateOptions): ImportedHosts {
  const out: ImportedHosts = new Map();
  for (const eg of sidecar.spec.egress ?? []) {
    for (const h of eg.hosts ?? []) {
      const slash = h.indexOf('/');
      if (slash < 0) continue; // rejected by validation: hosts must be ns/dnsName
      let ns = h.slice(0, slash);
      const dns = h.slice(slash + 1);
      if (ns === '~') continue;
      if (ns === '.') ns = proxyNamespace;
      const host = resolveShortname(dns, sidecar.meta.namespace, options.domainSuffix);
      const list = out.get(ns);
      if (list) list.push(host);
      else out.set(ns, [host]);
    }
  }
  return out;
}

const importedBy = (hosts: readonly string[] | undefined, hostname: string) => (hosts ?? []).some((h) => hostSubsetOf(hostname, h));

/**
 * selectServices: a visible service is imported when its hostname is a subset of an imported host of its own
 * namespace or of `*`.
 */
export function selectServices(visible: readonly ServiceModel[], imported: ImportedHosts): ServiceModel[] {
  return visible.filter((s) => importedBy(imported.get(s.namespace), s.hostname) || importedBy(imported.get('*'), s.hostname));
}

/**
 * One service per hostname: a hostname imported from several namespaces keeps the one in the proxy's namespace,
 * then a Kubernetes service over a ServiceEntry, else the first (sidecar.go: servicesByHostname handling).
 */
export function dedupeByHostname(services: readonly ServiceModel[], proxyNamespace: string): ServiceModel[] {
  const chosen = new Map<string, ServiceModel>();
  for (const s of services) {
    const prev = chosen.get(s.hostname);
    if (!prev) {
      chosen.set(s.hostname, s);
      continue;
    }
    const better =
      (s.namespace === proxyNamespace && prev.namespace !== proxyNamespace) ||
      (prev.namespace !== proxyNamespace && s.registry === 'Kubernetes' && prev.registry !== 'Kubernetes');
    if (better) chosen.set(s.hostname, s);
  }
  const keep = new Set(chosen.values());
  return services.filter((s) => keep.has(s));
}

/** selectVirtualServices: any VS host matching (bidirectional wildcard) an imported host of its namespace or `*`. */
export function selectVirtualServices<V extends IstioConfig<'VirtualService'>>(vss: readonly V[], imported: ImportedHosts): V[] {
  // the imported hosts of a namespace plus those of `*`, built once per namespace (not per VirtualService host)
  const byNs = new Map<string, string[]>();
  const hostsFor = (ns: string): string[] => {
    let hosts = byNs.get(ns);
    if (!hosts) byNs.set(ns, (hosts = [...(imported.get(ns) ?? []), ...(imported.get('*') ?? [])]));
    return hosts;
  };
  return vss.filter((vs) => {
    const hosts = hostsFor(vs.meta.namespace);
    return (vs.spec.hosts ?? []).some((vh) => hosts.some((ih) => hostsMatch(vh, ih)));
  });
}

/**
 * Egress hosts that import nothing for this proxy: no visible service (hostname a subset of the host) and no
 * VirtualService bound to the mesh (a host matching it) in the host's namespace. istiod accepts such a host
 * silently and the proxy simply gets no config for it (model/sidecar.go convertIstioListenerToWrapper;
 * sidecar_test.go TestCreateSidecarScope "sidecar-scope-with-illegal-host"); meshscope says so, located.
 */
export function unmatchedEgressHosts(
  sidecar: IstioConfig<'Sidecar'>,
  proxyNamespace: string,
  options: TranslateOptions,
  visible: readonly ServiceModel[],
  meshVirtualServices: readonly IstioConfig<'VirtualService'>[],
): LoadError[] {
  const out: LoadError[] = [];
  (sidecar.spec.egress ?? []).forEach((eg, i) => {
    (eg.hosts ?? []).forEach((h, j) => {
      const slash = typeof h === 'string' ? h.indexOf('/') : -1;
      if (slash < 0) return; // rejected by validation
      let ns = h.slice(0, slash);
      if (ns === '~') return;
      if (ns === '.') ns = proxyNamespace;
      const host = resolveShortname(h.slice(slash + 1), sidecar.meta.namespace, options.domainSuffix);
      const inNs = (n: string) => ns === '*' || ns === n;
      const service = visible.some((s) => inNs(s.namespace) && hostSubsetOf(s.hostname, host));
      const vs = meshVirtualServices.some((v) => inNs(v.meta.namespace) && (v.spec.hosts ?? []).some((vh) => hostsMatch(vh, host)));
      if (service || vs) return;
      out.push(
        configError(
          sidecar,
          `spec.egress[${i}].hosts[${j}]`,
          `egress host ${h} imports nothing for namespace ${proxyNamespace}: no visible service or VirtualService matches it`,
        ),
      );
    });
  });
  return out;
}
