'use client';
// The Istio object a route or cluster came from (provenance filter_metadata.istio.config), and for a
// route the VirtualService http rule that produced it (rule index by route name, else by route order:
// components/proxy/model/ruleIndex.ts). Mesh proxies only: an uploaded dump has no objects behind it.
import { stringify } from 'yaml';
import Link from 'next/link';
import { useConfigObject } from '@/components/data/proxyDetailData';
import { sandboxLoadHref } from '@/components/sandbox/model/urlState';
import { ruleForRoute } from '@/components/proxy/model/ruleIndex';
import type { SimSource } from '@/server/simulate/types';

interface VsSpecLike {
  http?: { name?: string; match?: { name?: string; port?: number }[] }[];
}

export interface SourceRuleProps {
  proxyId: string | null;
  path: string;
  source?: SimSource;
  /** For routes: the route's name, its ordinal among this object's routes in the virtual host, the listen port. */
  route?: { name: string; ordinal: number; listenPort?: number };
}

export function SourceRule({ proxyId, path, source, route }: SourceRuleProps) {
  const q = useConfigObject(proxyId ? path : undefined);
  const title = source ? `${source.kind} ${source.namespace}/${source.name}` : path;
  if (!proxyId)
    return (
      <p className="small" data-testid="graph-source">
        from <strong>{title}</strong> <span className="muted">(the object itself is shown for mesh proxies; this dump was uploaded)</span>
      </p>
    );
  if (q.isPending) return <p className="muted small">Loading {title}…</p>;
  if (q.error)
    return (
      <p className="error-text small">
        Could not load {title}: {q.error.message}
      </p>
    );
  const obj = q.data.object as { kind: string; metadata: { name: string; namespace: string }; spec: VsSpecLike };
  const rule =
    route && obj.kind === 'VirtualService' ? ruleForRoute(obj.spec.http, route.name, route.ordinal, route.listenPort) : undefined;
  const origin = q.data.origin;
  const where = origin.file ? `${origin.file}${origin.doc !== undefined ? ` (document ${origin.doc})` : ''}` : origin.source;
  return (
    <div className="rg-source" data-testid="graph-source">
      <div>
        from <strong>{obj.kind}</strong>{' '}
        <span className="mono">
          {obj.metadata.namespace}/{obj.metadata.name}
        </span>
        {rule ? (
          <span data-testid="graph-source-rule">
            {' '}
            · <span className="mono">spec.http[{rule.index}]</span>
            {rule.match !== undefined ? <span className="mono">.match[{rule.match}]</span> : null}
            <span className="muted small"> ({rule.by === 'name' ? 'by route name' : 'by route order'})</span>
          </span>
        ) : null}
      </div>
      <div className="muted small">
        {where} ·{' '}
        <Link href={sandboxLoadHref(path)} data-testid="load-into-sandbox">
          Load into sandbox
        </Link>
      </div>
      {rule ? <pre className="mono rg-json">{stringify(obj.spec.http?.[rule.index] ?? {})}</pre> : null}
      <details>
        <summary>whole {obj.kind} (YAML)</summary>
        <pre className="mono rg-json">{stringify(q.data.object)}</pre>
      </details>
    </div>
  );
}
