// Virtual host selection by Host/:authority. Envoy: source/common/router/config_impl.cc
// (RouteMatcher::findVirtualHost / findWildcardVirtualHost): lower-cased host; exact domain, then the
// longest `*suffix` wildcard, then the longest `prefix*` wildcard, then `*`. The port is stripped only when
// the route config sets ignore_port_in_host_matching or the HCM sets strip_any_host_port /
// strip_matching_host_port (docs/root/faq/debugging/why_is_my_route_not_found.rst: `host:443` does not
// match domain `host` otherwise).
import { arr, bool, objs, str, type J } from './json';
import type { Rejection } from './types';
import { stripPort } from './types';

export interface VhostPick {
  vhost?: J;
  index?: number;
  /** The host string actually matched (after port stripping and lower-casing). */
  matchedHost: string;
  rejected: Rejection[];
}

export interface HostStripping {
  ignorePortInHostMatching: boolean;
  stripAnyHostPort: boolean;
  stripMatchingHostPort: boolean;
  listenerPort: number;
}

export function hostStripping(routeConfig: J, hcm: J | undefined, listenerPort: number): HostStripping {
  return {
    ignorePortInHostMatching: bool(routeConfig, 'ignore_port_in_host_matching') === true,
    stripAnyHostPort: bool(hcm, 'strip_any_host_port') === true,
    stripMatchingHostPort: bool(hcm, 'strip_matching_host_port') === true,
    listenerPort,
  };
}

export function hostForMatching(host: string, s: HostStripping): string {
  const bare = stripPort(host);
  if (bare !== host) {
    const port = host.slice(bare.length + 1);
    if (s.ignorePortInHostMatching || s.stripAnyHostPort) return bare.toLowerCase();
    if (s.stripMatchingHostPort && Number(port) === s.listenerPort) return bare.toLowerCase();
  }
  return host.toLowerCase();
}

type Kind = 'exact' | 'suffix' | 'prefix' | 'any';

function kindOf(d: string): Kind {
  if (d === '*') return 'any';
  if (d.startsWith('*')) return 'suffix';
  if (d.endsWith('*')) return 'prefix';
  return 'exact';
}

/** Whether `domain` matches `host` with kind `k`; wildcards must cover at least one character. */
function domainMatches(domain: string, host: string, k: Kind): boolean {
  if (k === 'exact') return domain === host;
  if (k === 'any') return true;
  const fixed = k === 'suffix' ? domain.slice(1) : domain.slice(0, -1);
  if (host.length <= fixed.length) return false;
  return k === 'suffix' ? host.endsWith(fixed) : host.startsWith(fixed);
}

export function selectVirtualHost(routeConfig: J, host: string, s: HostStripping): VhostPick {
  const matchedHost = hostForMatching(host, s);
  const vhosts = objs(routeConfig, 'virtual_hosts');
  let best: { index: number; kind: Kind; len: number } | undefined;
  const rank: Record<Kind, number> = { exact: 3, suffix: 2, prefix: 1, any: 0 };
  vhosts.forEach((vh, index) => {
    for (const raw of arr(vh, 'domains')) {
      if (typeof raw !== 'string') continue;
      const d = raw.toLowerCase();
      const k = kindOf(d);
      if (matchedHost === '' && k !== 'any') continue;
      if (!domainMatches(d, matchedHost, k)) continue;
      const len = d.length;
      if (!best || rank[k] > rank[best.kind] || (rank[k] === rank[best.kind] && len > best.len)) best = { index, kind: k, len };
    }
  });
  const rejected: Rejection[] = [];
  vhosts.forEach((vh, index) => {
    if (best && index === best.index) return;
    const name = str(vh, 'name') ?? `virtual_hosts[${index}]`;
    const matchesAtAll = arr(vh, 'domains').some((raw) => {
      if (typeof raw !== 'string') return false;
      const d = raw.toLowerCase();
      return domainMatches(d, matchedHost, kindOf(d));
    });
    rejected.push({
      hop: 'virtualHost',
      name,
      index,
      reason: matchesAtAll ? 'a more specific domain matched in another virtual host' : 'domain does not match',
    });
  });
  if (!best) return { matchedHost, rejected };
  return { vhost: vhosts[best.index], index: best.index, matchedHost, rejected };
}
