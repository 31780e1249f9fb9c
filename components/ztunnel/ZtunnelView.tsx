'use client';
// The ztunnel page: GET /api/ztunnel's workloads, services and policies (what istiod sends ztunnel) as three
// filterable tables, with istioctl ztunnel-config's columns. Workloads link to their proxy page (waypoints,
// sidecars) or to /trace from that pod (ambient pods); services link to the overview focused on them; a waypoint
// links to its row in the Services table and to its proxy page(s); a workload's Services link to their rows.
import { useMemo, useState } from 'react';

type Json = Record<string, unknown>;
export interface ZtunnelBody {
  workloads: Json[];
  services: Json[];
  policies: Json[];
}

const s = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const serviceAnchor = (key: string) => `svc-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A GatewayAddress's text key: `ns/hostname`, or the `network/ip` address (model/ambient addressText). */
const waypointKey = (g: unknown): string | undefined => {
  if (!g) return undefined;
  const o = g as Json;
  if (o['hostname']) {
    const h = o['hostname'] as Json;
    return `${s(h['namespace'])}/${s(h['hostname'])}`;
  }
  return s(o['address']);
};

/** A GatewayAddress (text form) → [label, key of the Service it names when known]. */
function waypointOf(g: unknown, services: readonly Json[]): [string, string | undefined] {
  if (!g) return ['None', undefined];
  const o = g as Json;
  if (o['hostname']) {
    const h = o['hostname'] as Json;
    const key = `${s(h['namespace'])}/${s(h['hostname'])}`;
    const svc = services.find((x) => `${s(x['namespace'])}/${s(x['hostname'])}` === key);
    return [svc ? s(svc['name']) : key, svc ? key : undefined];
  }
  return [s(o['address']), undefined];
}

const matches = (filter: string, cells: readonly string[]) => {
  const f = filter.trim().toLowerCase();
  return !f || cells.some((c) => c.toLowerCase().includes(f));
};

function Filter({ value, onChange, label, testId }: { value: string; onChange: (v: string) => void; label: string; testId: string }) {
  return (
    <input
      type="search"
      placeholder={`Filter ${label}…`}
      aria-label={`Filter ${label}`}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    />
  );
}

function WaypointCell({ g, services, proxies }: { g: unknown; services: readonly Json[]; proxies: Readonly<Record<string, string[]>> }) {
  const [label, key] = waypointOf(g, services);
  const pods = proxies[waypointKey(g) ?? ''] ?? [];
  return (
    <>
      {key ? <a href={`#${serviceAnchor(key)}`}>{label}</a> : <span className={label === 'None' ? 'muted' : undefined}>{label}</span>}
      {pods.map((id) => (
        <a
          key={id}
          href={`/proxies/${encodeURIComponent(id)}`}
          className="chip"
          title={`the waypoint's proxy page: ${id}`}
          data-testid="ztunnel-waypoint-proxy"
        >
          proxy
        </a>
      ))}
    </>
  );
}

export function ZtunnelView({
  body,
  ambient,
  proxies,
  waypointProxies = {},
}: {
  body: ZtunnelBody;
  ambient: boolean;
  proxies: readonly string[];
  /** A waypoint's address (`ns/hostname` or `network/ip`) → the proxy ids of its pods. */
  waypointProxies?: Readonly<Record<string, string[]>>;
}) {
  const [wf, setWf] = useState('');
  const [sf, setSf] = useState('');
  const [pf, setPf] = useState('');
  const proxySet = useMemo(() => new Set(proxies), [proxies]);
  const endpoints = useMemo(() => {
    const m = new Map<string, { all: number; healthy: number }>();
    for (const w of body.workloads)
      for (const key of Object.keys((w['services'] as Json | undefined) ?? {})) {
        const e = m.get(key) ?? { all: 0, healthy: 0 };
        e.all++;
        if (w['status'] !== 'UNHEALTHY') e.healthy++;
        m.set(key, e);
      }
    return m;
  }, [body.workloads]);

  const workloads = body.workloads.filter((w) =>
    matches(wf, [
      s(w['namespace']),
      s(w['name']),
      ...((w['addresses'] as string[] | undefined) ?? []),
      s(w['node']),
      waypointOf(w['waypoint'], body.services)[0],
      s(w['tunnelProtocol']) || 'TCP',
    ]),
  );
  const services = body.services.filter((x) =>
    matches(sf, [s(x['namespace']), s(x['name']), s(x['hostname']), ...((x['addresses'] as string[] | undefined) ?? [])]),
  );
  const policies = body.policies.filter((p) =>
    matches(pf, [s(p['namespace']), s(p['name']), s(p['action']) || 'ALLOW', s(p['scope']) || 'GLOBAL']),
  );

  return (
    <>
      <h1>ztunnel</h1>
      <p className="muted" data-testid="ztunnel-profile">
        {ambient
          ? 'What istiod sends every ztunnel (istio.workload.Address and istio.security.Authorization over Delta xDS), as GET /api/ztunnel and meshscope ztunnel-config print it.'
          : 'istiod runs without the ambient profile (start meshscope with --ambient): ztunnel is sent nothing.'}
      </p>
      <section className="panel" data-testid="ztunnel-workloads">
        <h2>Workloads ({body.workloads.length})</h2>
        <Filter value={wf} onChange={setWf} label="workloads" testId="ztunnel-workloads-filter" />
        <table className="table">
          <thead>
            <tr>
              <th>NAMESPACE</th>
              <th>POD NAME</th>
              <th>ADDRESS</th>
              <th>NODE</th>
              <th>WAYPOINT</th>
              <th>PROTOCOL</th>
              <th>SERVICES</th>
              <th>POLICIES</th>
            </tr>
          </thead>
          <tbody>
            {workloads.map((w) => {
              const id = `${s(w['name'])}.${s(w['namespace'])}`;
              const protocol = s(w['tunnelProtocol']) || 'TCP';
              const href = proxySet.has(id)
                ? `/proxies/${encodeURIComponent(id)}`
                : protocol === 'HBONE'
                  ? `/trace?from=${encodeURIComponent(id)}`
                  : undefined;
              return (
                <tr key={s(w['uid'])} data-testid="ztunnel-workload-row">
                  <td>{s(w['namespace'])}</td>
                  <td>{href ? <a href={href}>{s(w['name'])}</a> : s(w['name'])}</td>
                  <td>{((w['addresses'] as string[] | undefined) ?? []).join(',') || s(w['hostname'])}</td>
                  <td>{s(w['node'])}</td>
                  <td>
                    <WaypointCell g={w['waypoint']} services={body.services} proxies={waypointProxies} />
                  </td>
                  <td>{protocol}</td>
                  <td>
                    {Object.keys((w['services'] as Json | undefined) ?? {}).map((key) => (
                      <a key={key} href={`#${serviceAnchor(key)}`} className="chip">
                        {key.slice(key.indexOf('/') + 1).split('.')[0]}
                      </a>
                    ))}
                  </td>
                  <td className="muted">{((w['authorizationPolicies'] as string[] | undefined) ?? []).join(', ')}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <section className="panel" data-testid="ztunnel-services">
        <h2>Services ({body.services.length})</h2>
        <Filter value={sf} onChange={setSf} label="services" testId="ztunnel-services-filter" />
        <table className="table">
          <thead>
            <tr>
              <th>NAMESPACE</th>
              <th>SERVICE NAME</th>
              <th>SERVICE VIP</th>
              <th>WAYPOINT</th>
              <th>ENDPOINTS</th>
            </tr>
          </thead>
          <tbody>
            {services.map((x) => {
              const key = `${s(x['namespace'])}/${s(x['hostname'])}`;
              const e = endpoints.get(key) ?? { all: 0, healthy: 0 };
              return (
                <tr key={key} id={serviceAnchor(key)} data-testid="ztunnel-service-row">
                  <td>{s(x['namespace'])}</td>
                  <td title={s(x['hostname'])}>
                    <a href={`/?focus=${encodeURIComponent(`svc:${key}`)}`} title={`${s(x['hostname'])} in the overview`}>
                      {s(x['name'])}
                    </a>
                  </td>
                  <td>{((x['addresses'] as string[] | undefined) ?? []).map((a) => a.slice(a.indexOf('/') + 1)).join(',')}</td>
                  <td>
                    <WaypointCell g={x['waypoint']} services={body.services} proxies={waypointProxies} />
                  </td>
                  <td>
                    {e.healthy}/{e.all}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <section className="panel" data-testid="ztunnel-policies">
        <h2>Policies ({body.policies.length})</h2>
        <Filter value={pf} onChange={setPf} label="policies" testId="ztunnel-policies-filter" />
        <table className="table">
          <thead>
            <tr>
              <th>NAMESPACE</th>
              <th>POLICY NAME</th>
              <th>ACTION</th>
              <th>SCOPE</th>
            </tr>
          </thead>
          <tbody>
            {policies.map((p) => (
              <tr key={`${s(p['namespace'])}/${s(p['name'])}`} data-testid="ztunnel-policy-row">
                <td>{s(p['namespace'])}</td>
                <td>{s(p['name'])}</td>
                <td>{s(p['action']) || 'ALLOW'}</td>
                <td>{s(p['scope']) || 'GLOBAL'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
