// The overview's ambient panel (GET /api/graph's `ambient`, server/meshGraph/ambient): the namespaces enrolled in
// ambient, each waypoint with the Services and workloads it serves (links to its proxy page and to the ztunnel
// page's rows), waypoints istiod does not count yet, and L7 config that no waypoint runs.
import type { AmbientOverview } from '@/server/api/contract';

const proxyHref = (id: string) => `/proxies/${encodeURIComponent(id)}`;
/** The ztunnel page's anchor of a Service row (components/ztunnel/ZtunnelView serviceAnchor). */
const serviceHref = (key: string) => `/ztunnel#svc-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const shortHost = (key: string) => key.slice(key.indexOf('/') + 1).split('.')[0];

export function AmbientPanel({ ambient }: { ambient: AmbientOverview }) {
  return (
    <section className="panel" id="ambient" data-testid="ambient-panel">
      <h2>Ambient</h2>
      <p className="muted">
        Namespaces with pods enrolled in ambient (ztunnel, no sidecar):{' '}
        {ambient.namespaces.length ? (
          ambient.namespaces.map((ns) => (
            <span key={ns} className="chip" data-testid="ambient-namespace">
              {ns}
            </span>
          ))
        ) : (
          <span>none</span>
        )}{' '}
        · {ambient.pods.length} enrolled pods · <a href="/ztunnel">what ztunnel is sent</a>. In the graph: enrolled pods and namespaces have
        a double border, waypoints are hexagons with a dashed green edge to each Service or workload they serve.
      </p>
      {ambient.waypoints.length ? (
        <table className="table" data-testid="ambient-waypoints">
          <thead>
            <tr>
              <th>WAYPOINT</th>
              <th>ADDRESS</th>
              <th>FOR</th>
              <th>PROXIES</th>
              <th>SERVES SERVICES</th>
              <th>SERVES WORKLOADS</th>
            </tr>
          </thead>
          <tbody>
            {ambient.waypoints.map((w) => (
              <tr key={w.key} data-testid="ambient-waypoint-row">
                <td>{w.key}</td>
                <td>{w.address}</td>
                <td>{w.trafficType}</td>
                <td>
                  {w.proxies.map((p) => (
                    <a key={p} href={proxyHref(p)} className="chip">
                      {p}
                    </a>
                  ))}
                </td>
                <td>
                  {w.services.length
                    ? w.services.map((s) => (
                        <a key={s} href={serviceHref(s)} className="chip" title={s}>
                          {shortHost(s)}
                        </a>
                      ))
                    : '—'}
                </td>
                <td>{w.workloads.length ? w.workloads.join(', ') : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No waypoint: ztunnel carries every enrolled pod's traffic at L4 only.</p>
      )}
      {ambient.pending.length ? (
        <ul data-testid="ambient-pending">
          {ambient.pending.map((p) => (
            <li key={p.key}>
              Gateway {p.key} is not a waypoint yet: {p.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {ambient.skipped.length ? (
        <>
          <h3>L7 config without a waypoint</h3>
          <table className="table" data-testid="ambient-skipped">
            <thead>
              <tr>
                <th>OBJECT</th>
                <th>REASON</th>
                <th>WHY</th>
              </tr>
            </thead>
            <tbody>
              {ambient.skipped.map((s) => (
                <tr key={`${s.kind}/${s.object}/${s.target}`} data-testid="ambient-skipped-row">
                  <td>
                    {s.kind} {s.object}
                  </td>
                  <td>
                    <code>{s.reason}</code>
                  </td>
                  <td>{s.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
