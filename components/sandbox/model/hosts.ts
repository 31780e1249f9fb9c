// Hosts the draft routes (VirtualService hosts, DestinationRule host) and the subsets known for a host,
// from live DestinationRules and the draft's own. Short names and FQDNs compare by their first label
// within the same namespace-less view the form needs (suggestions only; the server decides).
import type { LiveConfig } from '@/components/data/sandbox';
import type { ParsedDraft } from './draftDocs';

type Js = Record<string, unknown>;
const obj = (v: unknown): Js => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Js) : {});

function docsJs(parsed: ParsedDraft): Js[] {
  const out: Js[] = [];
  for (const d of parsed.docs) {
    if (d.errors.length) continue;
    try {
      out.push(obj(d.toJS()));
    } catch {
      /* skip */
    }
  }
  return out;
}

export function draftHosts(parsed: ParsedDraft): string[] {
  const hosts = new Set<string>();
  for (const o of docsJs(parsed)) {
    const spec = obj(o.spec);
    if (o.kind === 'VirtualService' && Array.isArray(spec.hosts)) for (const h of spec.hosts) if (typeof h === 'string') hosts.add(h);
    if (o.kind === 'DestinationRule' && typeof spec.host === 'string') hosts.add(spec.host);
  }
  return [...hosts];
}

const short = (h: string) => h.split('.')[0] ?? h;

export function knownSubsets(host: string, live: readonly LiveConfig[], parsed: ParsedDraft): string[] {
  const out = new Set<string>();
  const drs = [
    ...live.filter((c) => c.kind === 'DestinationRule').map((c) => c as unknown as Js),
    ...docsJs(parsed).filter((o) => o.kind === 'DestinationRule'),
  ];
  for (const dr of drs) {
    const spec = obj(dr.spec);
    if (typeof spec.host !== 'string' || short(spec.host) !== short(host)) continue;
    for (const s of Array.isArray(spec.subsets) ? spec.subsets : []) if (typeof obj(s).name === 'string') out.add(obj(s).name as string);
  }
  return [...out].sort();
}
