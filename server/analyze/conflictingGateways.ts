// IST0145 ConflictingGateways — Istio's gateway.ConflictingGatewayAnalyzer (analyzers/gateway/conflictinggateway.go):
// two Gateways for the same workloads (the same selector, or selectors one of which contains the other as a
// string and that select a common pod) that declare the same host, with the same bind, on the same port number.
// Each one is reported per server, naming the others (sorted). Hosts compare as written, as
// model.CheckDuplicates does — including its side effect: a server without duplicates adds its hosts to the
// other Gateway's known hosts, so a third Gateway may then conflict with them.
// A Gateway with a selector but no servers matches nothing: IST0101 "selector" (as the port analyzer says too).
import type { IstioConfig } from '../model/mesh';
import type { Problem } from '../model/problem';
import { selectorString, selects } from './hosts';
import { report } from './messages';
import type { Analyzer } from './types';
import { byteCompare } from '../lib/compare';

/** `selector~port` → gateway `ns/name` → host → bind. */
type GatewayMap = Map<string, Map<string, Map<string, string>>>;

const key = (selector: string, port: number) => `${selector}~${port}`;

function gatewayMap(gateways: readonly IstioConfig<'Gateway'>[]): GatewayMap {
  const m: GatewayMap = new Map();
  for (const gw of gateways) {
    const sel = selectorString(gw.spec.selector ?? {});
    for (const server of gw.spec.servers ?? []) {
      const k = key(sel, server.port?.number ?? 0);
      if (!m.has(k)) m.set(k, new Map());
      const hosts = new Map<string, string>();
      for (const h of server.hosts ?? []) hosts.set(h, server.bind ?? '');
      m.get(k)!.set(`${gw.meta.namespace}/${gw.meta.name}`, hosts);
    }
  }
  return m;
}

const parseSelector = (s: string): Record<string, string> =>
  Object.fromEntries(
    s
      .split(',')
      .map((p) => p.split('='))
      .filter((kv) => kv.length === 2),
  );

/** model.CheckDuplicates: the hosts already known with the same bind; none → they all become known. */
function duplicates(hosts: readonly string[], bind: string, known: Map<string, string>): string[] {
  const dup = hosts.filter((h) => known.has(h) && known.get(h) === bind);
  if (dup.length === 0) for (const h of hosts) known.set(h, bind);
  return dup;
}

export const conflictingGatewayAnalyzer: Analyzer = {
  meta: {
    name: 'gateway.ConflictingGatewayAnalyzer',
    description: "Checks a gateway's selector, port number and hosts",
    inputs: ['Gateway', 'Pod'],
  },
  analyze(s) {
    const map = gatewayMap(s.gateways);
    const out: Problem[] = [];
    for (const gw of s.gateways) {
      const selector = gw.spec.selector ?? {};
      const sel = selectorString(selector);
      const name = `${gw.meta.namespace}/${gw.meta.name}`;
      const same = [...map.keys()].filter((k) => {
        const other = k.slice(0, k.lastIndexOf('~'));
        if (other === sel) return true;
        if (!other.includes(sel) && !sel.includes(other)) return false;
        const otherSelector = parseSelector(other);
        return s.pods.some((p) => selects(selector, p.labels) && selects(otherSelector, p.labels));
      });
      if (sel !== '' && same.length === 0) {
        out.push(report('ReferencedResourceNotFound', gw, 'spec.selector', 'selector', sel));
        continue;
      }
      (gw.spec.servers ?? []).forEach((server, i) => {
        const port = server.port?.number ?? 0;
        const conflicts: string[] = [];
        for (const k of same) {
          if (k.slice(k.lastIndexOf('~') + 1) !== String(port)) continue;
          for (const [other, hosts] of map.get(k)!)
            if (other !== name && duplicates(server.hosts ?? [], server.bind ?? '', hosts).length > 0) conflicts.push(other);
        }
        if (conflicts.length === 0) return;
        conflicts.sort(byteCompare);
        out.push(
          report('ConflictingGateways', gw, `spec.servers[${i}]`, conflicts.join(','), sel, String(port), (server.hosts ?? []).join(',')),
        );
      });
    }
    return out;
  },
};
