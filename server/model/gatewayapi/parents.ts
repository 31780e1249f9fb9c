// Route parentRefs → the parents a route binds to, with the reason a parent refuses it, and the route
// status istiod writes from them (conversion.go:extractParentReferenceInfo, referenceAllowed,
// hostnameAllowedByIsolation, filteredReferences; conditions.go:createRouteStatus).
import { byteCompare } from '../../lib/compare';
import { hostSubsetOf, hostsMatch, isWildcard } from '../host';
import type { ListenerParent } from './listeners';
import type { Condition, ParentRef, RouteParentStatus } from './types';
import { GATEWAY_API_GROUP } from './types';
import type { RouteError } from './rules';

export interface ParentError {
  reason: 'NoMatchingParent' | 'NotAllowedByListeners' | 'NoMatchingListenerHostname';
  message: string;
}

/** istiod's routeParentReference. */
export interface RouteParent {
  /** `mesh`, or `<ns>/<internal gateway name>`. */
  internalName: string;
  ref: ParentRef;
  /** For a mesh parent: the Service host. */
  serviceHost?: string;
  listener?: ListenerParent;
  denied?: ParentError;
  bannedHostnames: string[];
}

export interface ParentContext {
  domainSuffix: string;
  listenersOf(namespace: string, name: string): ListenerParent[] | undefined;
  serviceExists(namespace: string, name: string): boolean;
}

/** parentRefString: `group/kind/name/section/port.namespace` identity of a parentRef. */
export const parentRefString = (r: ParentRef, ns: string): string =>
  `${r.group}/${r.kind}/${r.name}/${r.sectionName ?? ''}/${r.port ?? ''}.${r.namespace ?? ns}`;

function referenceAllowed(
  p: ListenerParent,
  ref: ParentRef,
  routeKind: string,
  hostnames: readonly string[],
  ns: string,
): ParentError | undefined {
  if (ref.port !== undefined && ref.port !== p.listener.port) return { reason: 'NoMatchingParent', message: `port ${ref.port} not found` };
  if (ref.sectionName !== undefined && ref.sectionName !== p.listener.name)
    return { reason: 'NoMatchingParent', message: `sectionName "${ref.sectionName}" not found` };
  const routeHosts = hostnames.length ? hostnames : ['*'];
  if (p.hostnames.length) {
    let matched = false;
    let hostMatched = false;
    for (const rh of routeHosts) {
      for (const ph of p.hostnames) {
        const slash = ph.indexOf('/');
        const [pns, phost] = slash < 0 ? ['*', ph] : [ph.slice(0, slash), ph.slice(slash + 1)];
        const hm = hostsMatch(phost, rh);
        hostMatched ||= hm;
        if (hm && (pns === '*' || pns === ns)) matched = true;
      }
    }
    if (!matched)
      return hostMatched
        ? {
            reason: 'NotAllowedByListeners',
            message: `hostnames matched parent hostname "${p.originalHostname}", but namespace "${ns}" is not allowed by the parent`,
          }
        : { reason: 'NoMatchingListenerHostname', message: `no hostnames matched parent hostname "${p.originalHostname}"` };
  }
  if (!p.allowedKinds.some((k) => k.kind === routeKind && k.group === GATEWAY_API_GROUP))
    return { reason: 'NotAllowedByListeners', message: `kind ${GATEWAY_API_GROUP}/v1, Kind=${routeKind} is not allowed` };
  return undefined;
}

/** extractParentReferenceInfo: every (parentRef, listener) pair, sorted by parentRef identity. */
export function resolveParents(
  ctx: ParentContext,
  routeKind: string,
  ns: string,
  refs: readonly ParentRef[],
  hostnames: readonly string[],
): RouteParent[] {
  const out: RouteParent[] = [];
  for (const ref of refs) {
    const pns = ref.namespace ?? ns;
    if (ref.kind === 'Service' && (ref.group === '' || ref.group === 'core')) {
      const p: RouteParent = { internalName: 'mesh', ref, serviceHost: `${ref.name}.${pns}.svc.${ctx.domainSuffix}`, bannedHostnames: [] };
      if (!ctx.serviceExists(pns, ref.name)) p.denied = { reason: 'NoMatchingParent', message: `parent service: "${ref.name}" not found` };
      out.push(p);
      continue;
    }
    if (ref.kind !== 'Gateway' || ref.group !== GATEWAY_API_GROUP) continue; // another controller's parent: ignored
    const listeners = ctx.listenersOf(pns, ref.name) ?? [];
    for (const l of listeners) {
      if (!l.internalName) continue;
      const banned = listeners
        .filter((o) => o !== l && o.internalName && o.listener.port === l.listener.port && o.listener.protocol === l.listener.protocol)
        .map((o) => o.originalHostname)
        .filter((h) => h !== l.originalHostname);
      const p: RouteParent = { internalName: l.internalName, ref, listener: l, bannedHostnames: banned };
      const denied = referenceAllowed(l, ref, routeKind, hostnames, ns);
      if (denied) p.denied = denied;
      out.push(p);
    }
  }
  return out.sort((a, b) => byteCompare(parentRefString(a.ref, ns), parentRefString(b.ref, ns)));
}

/** hostnameAllowedByIsolation: a wildcard listener does not take hosts a more specific listener on its port serves. */
export function hostnameAllowedByIsolation(p: RouteParent, routeHost: string): boolean {
  const ours = p.listener?.originalHostname ?? '';
  if (ours !== '' && !isWildcard(ours)) return true;
  if (ours !== '' && !hostsMatch(routeHost, ours)) return false;
  for (const other of p.bannedHostnames) {
    if (ours.length > other.length) continue;
    if (hostSubsetOf(routeHost, other)) return false;
  }
  return true;
}

/** filteredReferences: accepted parents, sorted by internal name. */
export const acceptedParents = (parents: readonly RouteParent[]): RouteParent[] =>
  parents.filter((p) => !p.denied).sort((a, b) => byteCompare(a.internalName, b.internalName));

const RANK: Record<string, number> = {
  '': 0,
  NotAllowedByListeners: 1,
  NoMatchingListenerHostname: 2,
  ParentRefConflict: 3,
  NoMatchingParent: 4,
};

/** createRouteStatus: one entry per parentRef, the least severe result reported (equal ones joined). */
export function routeStatus(
  parents: readonly RouteParent[],
  ns: string,
  meshError: RouteError | undefined,
  gwError: RouteError | undefined,
): RouteParentStatus[] {
  const byRef = new Map<string, { ref: ParentRef; results: RouteParent[] }>();
  for (const p of parents) {
    const k = parentRefString(p.ref, ns);
    const e = byRef.get(k) ?? { ref: p.ref, results: [] };
    e.results.push(p);
    byRef.set(k, e);
  }
  const out: { key: string; status: RouteParentStatus }[] = [];
  for (const [key, { ref, results }] of byRef) {
    const ok = results.filter((r) => !r.denied).length;
    let report = results[0] as RouteParent;
    let denied = report.denied ? { ...report.denied } : undefined;
    let rank = RANK[report.denied?.reason ?? ''] ?? 0;
    for (const r of results.slice(1)) {
      const rr = RANK[r.denied?.reason ?? ''] ?? 0;
      if (rr < rank) {
        rank = rr;
        report = r;
        denied = r.denied ? { ...r.denied } : undefined;
      } else if (rr === rank && r.denied) {
        if (!denied) denied = { ...r.denied };
        else denied.message += `; ${r.denied.message}`;
      }
    }
    const routeError = report.internalName === 'mesh' ? meshError : gwError;
    const conditions: Condition[] = [
      denied
        ? { type: 'Accepted', status: 'False', reason: denied.reason, message: denied.message }
        : {
            type: 'Accepted',
            status: 'True',
            reason: 'Accepted',
            message: ok > 1 ? `Route was valid, bound to ${ok} parents` : 'Route was valid',
          },
      routeError
        ? { type: 'ResolvedRefs', status: 'False', reason: routeError.reason, message: routeError.message }
        : { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', message: 'All references resolved' },
    ];
    out.push({ key, status: { parentRef: ref, conditions } });
  }
  // New parents are appended in reverse parentRef order, as istiod sorts them.
  return out.sort((a, b) => byteCompare(b.key, a.key)).map((x) => x.status);
}
