'use client';
// The Istio object a route or cluster came from (provenance filter_metadata.istio.config), and for a
// route the VirtualService http rule that produced it, as translation recorded it (the proxy's provenance,
// keyed by route config / virtual host / index). Mesh proxies only: an uploaded dump has no objects behind it.
import { stringify } from 'yaml';
import Link from 'next/link';
import { useConfigObject, useRouteSource } from '@/components/data/proxyDetailData';
import { RuleLabel, RuleYaml } from '@/components/common/RouteRule';
import { sandboxLoadHref } from '@/components/sandbox/model/urlState';
import type { SimSource } from '@/server/simulate/types';
import type { RouteKey } from './model/details';

interface VsSpecLike {
  http?: unknown[];
}

export interface SourceRuleProps {
  proxyId: string | null;
  path: string;
  source?: SimSource;
  /** For routes: where the route sits (route config, virtual host, index). */
  route?: RouteKey;
}

export function SourceRule({ proxyId, path, source, route }: SourceRuleProps) {
  const q = useConfigObject(proxyId ? path : undefined);
  const rs = useRouteSource(proxyId, route);
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
  const rule = route && obj.kind === 'VirtualService' ? (rs.data ?? undefined) : undefined;
  const origin = q.data.origin;
  const where = origin.file ? `${origin.file}${origin.doc !== undefined ? ` (document ${origin.doc})` : ''}` : origin.source;
  return (
    <div className="rg-source" data-testid="graph-source">
      <div>
        from <strong>{obj.kind}</strong>{' '}
        <span className="mono">
          {obj.metadata.namespace}/{obj.metadata.name}
        </span>
        {rule ? <RuleLabel source={rule} testId="graph-source-rule" /> : null}
      </div>
      <div className="muted small">
        {where} ·{' '}
        <Link href={sandboxLoadHref(path)} data-testid="load-into-sandbox">
          Load into sandbox
        </Link>
      </div>
      {rule ? <RuleYaml source={rule} spec={obj.spec} testId="graph-source-rule-yaml" className="rg-json" /> : null}
      <details>
        <summary>whole {obj.kind} (YAML)</summary>
        <pre className="mono rg-json">{stringify(q.data.object)}</pre>
      </details>
    </div>
  );
}
