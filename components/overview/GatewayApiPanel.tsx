'use client';
// Gateway API on the overview (GET /api/gateway-api): each Gateway with its status, listeners and the proxy
// serving it (a link to trace a request through it, or "no proxy deployed"), and each route with its rules
// (the Envoy route name `<ns>.<route>.<rule>`, matches, weighted backends) and its per-parent status.
import Link from 'next/link';
import type { GatewayApiCondition, GatewayApiResponse, GatewayStatusModel, RouteStatusModel } from '@/server/api/contract';
import { proxyHref } from '@/components/graph/elements';
import { useGatewayApi } from '@/components/data/useGatewayApi';

/** A condition as a badge: `Accepted` (True) plain, anything else with its reason, the message as a tooltip. */
export function ConditionBadge({ c }: { c: GatewayApiCondition }) {
  // Conflicted is a negative condition: True is the problem.
  const good = c.type === 'Conflicted' ? c.status === 'False' : c.status === 'True';
  const plain = good && (c.reason === c.type || c.reason === 'NoConflicts');
  return (
    <span className={`badge${good ? '' : ' warn'}`} title={c.message} data-testid="condition" data-type={c.type} data-status={c.status}>
      {c.type}
      {plain ? '' : `: ${c.status === 'True' ? '' : 'not '}${c.reason}`}
    </span>
  );
}

const conditionsOf = (cs: readonly GatewayApiCondition[]) => cs.map((c) => <ConditionBadge key={c.type} c={c} />);

/** `/proxies/<id>?tab=trace&mode=gateway&port=<port>`: the trace form pre-set for a request at the listener. */
export function gatewayTraceHref(proxyId: string, port: number, path = '/'): string {
  const q = new URLSearchParams({ tab: 'trace', mode: 'gateway', port: String(port) });
  if (path !== '/') q.set('path', path);
  return `${proxyHref(proxyId)}?${q.toString()}`;
}

export function GatewayRow({ g }: { g: GatewayStatusModel }) {
  const firstPort = g.listeners[0]?.port ?? 80;
  return (
    <article className="gwapi-gateway" data-testid="gwapi-gateway" data-name={`${g.namespace}/${g.name}`}>
      <h3>
        Gateway {g.namespace}/{g.name} <span className="muted small">class {g.className}</span> {conditionsOf(g.conditions)}
      </h3>
      <p className="small" data-testid="gwapi-proxy">
        {g.proxy.proxies.length === 0 ? (
          <span className="badge warn" title={`istiod's gateway deployment controller would run ${g.proxy.deploymentName}`}>
            no proxy deployed
          </span>
        ) : (
          g.proxy.proxies.map((id) => (
            <span key={id}>
              proxy{' '}
              <Link href={proxyHref(id)} className="mono">
                {id}
              </Link>{' '}
              <Link href={gatewayTraceHref(id, firstPort)} data-testid="gwapi-trace">
                Trace a request through it
              </Link>
            </span>
          ))
        )}{' '}
        <span className="muted">Service {g.proxy.serviceHosts.join(', ')}</span>
      </p>
      <table className="table" data-testid="gwapi-listeners">
        <thead>
          <tr>
            <th>listener</th>
            <th className="num">port</th>
            <th>protocol</th>
            <th className="num">routes</th>
            <th>status</th>
          </tr>
        </thead>
        <tbody>
          {g.listeners.map((l) => (
            <tr key={l.name}>
              <td className="mono">{l.name}</td>
              <td className="num">{l.port}</td>
              <td>{l.protocol}</td>
              <td className="num">{l.attachedRoutes}</td>
              <td>{conditionsOf(l.conditions)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}

const parentName = (p: RouteStatusModel['parents'][number]['parentRef'], ns: string) =>
  `${p.kind} ${p.namespace ?? ns}/${p.name}${p.sectionName ? `:${p.sectionName}` : ''}${p.port !== undefined ? ` port ${p.port}` : ''}`;

export function RouteRow({ r }: { r: RouteStatusModel }) {
  return (
    <article className="gwapi-route" data-testid="gwapi-route" data-name={`${r.namespace}/${r.name}`}>
      <h3>
        {r.kind} {r.namespace}/{r.name}
        {r.hostnames.length ? <span className="muted small"> hosts {r.hostnames.join(', ')}</span> : null}
      </h3>
      {r.parents.length === 0 ? (
        <p className="small muted">No parent of this route is handled by Istio (istiod writes no status for it).</p>
      ) : (
        <ul className="small gwapi-parents">
          {r.parents.map((p) => (
            <li key={parentName(p.parentRef, r.namespace)} data-testid="gwapi-parent">
              {parentName(p.parentRef, r.namespace)} {conditionsOf(p.conditions)}
              {p.conditions
                .filter((c) => c.status !== 'True')
                .map((c) => (
                  <span key={c.type} className="muted">
                    {' '}
                    — {c.message}
                  </span>
                ))}
            </li>
          ))}
        </ul>
      )}
      <table className="table" data-testid="gwapi-rules">
        <thead>
          <tr>
            <th>rule (Envoy route name)</th>
            <th>matches</th>
            <th>backends</th>
          </tr>
        </thead>
        <tbody>
          {r.rules.map((rule) => (
            <tr key={rule.name}>
              <td className="mono">{rule.name}</td>
              <td className="match">{rule.matches.join(' | ')}</td>
              <td>
                {rule.backends.length === 0
                  ? '—'
                  : rule.backends.map((b) => (
                      <span key={`${b.namespace}/${b.name}:${b.port ?? ''}`} className="label">
                        {b.namespace === r.namespace ? b.name : `${b.namespace}/${b.name}`}
                        {b.port !== undefined ? `:${b.port}` : ''}
                        {rule.backends.length > 1 ? <span className="weight"> w{b.weight}</span> : null}
                      </span>
                    ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.generated.length ? <p className="small muted">Carried by VirtualService {r.generated.join(', ')}</p> : null}
    </article>
  );
}

export function GatewayApiPanel({ initial }: { initial: GatewayApiResponse }) {
  const data = useGatewayApi(initial).data ?? initial;
  if (data.gateways.length === 0 && data.routes.length === 0) return null;
  return (
    <section className="panel" id="gateway-api" data-testid="gwapi-panel">
      <h2>Gateway API</h2>
      {data.gateways.map((g) => (
        <GatewayRow key={`${g.namespace}/${g.name}`} g={g} />
      ))}
      {data.routes.map((r) => (
        <RouteRow key={`${r.kind}/${r.namespace}/${r.name}`} r={r} />
      ))}
    </section>
  );
}
