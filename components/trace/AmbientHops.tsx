'use client';
// The ambient path of a traced request (simulate's `ambient`): client ztunnel → the destination's waypoint (its
// chain, route, weights and L7 policy) or the reason it is bypassed → each destination ztunnel with its L4 policy.
import type { AmbientHop, AmbientTrace } from '@/server/simulate/types';

function hopTitle(h: AmbientHop): string {
  if (h.hop === 'waypoint') return `waypoint ${h.waypoint ?? ''}`;
  return `${h.role === 'client' ? 'client' : 'destination'} ztunnel`;
}

function HopBody({ h }: { h: AmbientHop }) {
  const rows: [string, string | undefined][] = [
    ['workload', h.workload],
    ['node', h.node],
    ['proxy', h.proxy],
    ['listener', h.listener],
    ['filter chain', h.filterChain],
    ['route', h.route],
    ['cluster', h.cluster],
    ['policies', h.policies?.join(', ')],
    [
      'authorization',
      h.authorization ? `${h.authorization.decision}${h.authorization.policy ? ` by ${h.authorization.policy}` : ''}` : undefined,
    ],
  ];
  return (
    <>
      <dl className="ambient-hop-fields small">
        {rows
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => (
            <div key={k}>
              <dt className="muted">{k}</dt>
              <dd className="mono" data-testid={`ambient-${k.replace(' ', '-')}`}>
                {v}
              </dd>
            </div>
          ))}
      </dl>
      {h.weightedClusters ? (
        <ul className="small mono" data-testid="ambient-weights">
          {Object.entries(h.weightedClusters).map(([c, w]) => (
            <li key={c}>
              {c} <span className="weight">{w}%</span>
            </li>
          ))}
        </ul>
      ) : null}
      {h.error ? <p className="error-text small">✗ {h.error}</p> : null}
      {h.notes?.map((n) => (
        <p key={n} className="muted small">
          {n}
        </p>
      ))}
    </>
  );
}

export function AmbientHops({ trace }: { trace: AmbientTrace }) {
  const w = trace.waypoint;
  return (
    <section className="ambient-trace" data-testid="ambient-trace" aria-label="Ambient path">
      <h3>
        Ambient path from <span className="mono">{trace.source.workload}</span> <span className="badge">{trace.source.kind}</span>
      </h3>
      <p data-testid="ambient-waypoint-verdict" className={w.used ? 'ambient-used' : 'ambient-bypassed'}>
        {w.used ? (
          <>
            Through waypoint <span className="mono">{w.name}</span>.
          </>
        ) : (
          <>
            Waypoint {w.name ? <span className="mono">{w.name}</span> : null} bypassed:{' '}
            <span className="badge" data-testid="ambient-bypass-reason">
              {w.reason}
            </span>{' '}
            {w.message}
          </>
        )}
      </p>
      <ol className="ambient-hops" data-testid="ambient-hops">
        {trace.hops.map((h, i) => (
          <li key={`${h.hop}-${h.workload ?? h.proxy ?? i}`} data-testid="ambient-hop" data-hop={h.hop} data-role={h.role}>
            <div className="trace-hop-title">{hopTitle(h)}</div>
            <HopBody h={h} />
          </li>
        ))}
      </ol>
    </section>
  );
}
