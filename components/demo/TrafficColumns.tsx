'use client';
// The /demo page's three columns for one service, side by side: what is configured (meshscope's
// translation of the VirtualService), what the demo data plane observed in process (its own calls), and
// what Prometheus observed (GET /api/traffic, from the sidecars' istio_requests_total — on a real cluster
// too). Without Prometheus the third column says how to configure it.
import type { ServiceTraffic } from '@/components/data/demo';
import { type PrometheusAnswer, usePrometheusTraffic } from '@/components/data/promTraffic';

/** Prometheus's rate window (s): with the demo's 1 s scrape interval, enough samples for rate(). */
export const PROMETHEUS_WINDOW = 5;

function Bar({ percent, kind }: { percent: number; kind: 'configured' | 'observed' | 'prometheus' }) {
  return <div className={`demo-bar ${kind}`} style={{ width: `${Math.max(0, Math.min(100, percent))}%` }} />;
}

export function ConfiguredColumn({ svc }: { svc: ServiceTraffic }) {
  return (
    <section className="panel demo-column" aria-label="configured" data-testid="column-configured">
      <h2>Configured</h2>
      <p className="muted small">
        {svc.virtualService
          ? `${svc.virtualService.namespace}/${svc.virtualService.name}, catch-all route`
          : 'no VirtualService: the whole service'}
      </p>
      <table className="table demo-bars">
        <tbody>
          {svc.destinations.map((d) => (
            <tr key={d.cluster} data-subset={d.subset} data-configured={d.configuredPercent}>
              <td>{d.subset || '(all)'}</td>
              <td className="demo-bar-cell">
                <Bar percent={d.configuredPercent} kind="configured" />
              </td>
              <td className="num">{d.configuredPercent}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function PrometheusColumn({ host }: { host: string }) {
  const q = usePrometheusTraffic(host, PROMETHEUS_WINDOW);
  return (
    <section className="panel demo-column" aria-label="observed through Prometheus" data-testid="column-prometheus">
      <h2>Observed through Prometheus</h2>
      <PrometheusBody answer={q.data} failed={q.error ? String(q.error.message) : undefined} />
    </section>
  );
}

function PrometheusBody({ answer, failed }: { answer: PrometheusAnswer | undefined; failed: string | undefined }) {
  if (failed) return <p className="error-text small">{failed}</p>;
  if (!answer) return <p className="muted small">asking Prometheus…</p>;
  if (!answer.ok) {
    if (answer.status === 503 && !/not configured/i.test(answer.error))
      return (
        <p className="error-text small" data-testid="prometheus-failing">
          {answer.error}
        </p>
      );
    return <HowToConfigure detail={answer.error} />;
  }
  const s = answer.body.services[0];
  return (
    <>
      <p className="muted small" data-testid="prometheus-source">
        {answer.body.source.url} · {answer.body.source.state} · rate over {answer.body.windowSeconds} s
        {s ? ` · reporter ${s.reporter}` : ''}
      </p>
      {!s || s.requestsPerSecond === 0 ? (
        <p className="muted small" data-testid="prometheus-no-traffic">
          No requests to this service in the last {answer.body.windowSeconds} s.
        </p>
      ) : (
        <>
          <dl className="facts">
            <dt>requests</dt>
            <dd data-testid="prometheus-rps">{s.requestsPerSecond.toFixed(1)}/s</dd>
            <dt>error rate</dt>
            <dd className={s.errorPercent > 0 ? 'error-text' : undefined} data-testid="prometheus-errors" data-value={s.errorPercent}>
              {s.errorPercent}%
            </dd>
          </dl>
          <table className="table demo-bars" data-testid="prometheus-bars">
            <tbody>
              {s.destinations.map((d) => (
                <tr
                  key={`${d.subset ?? ''}|${d.workload ?? ''}|${d.version ?? ''}`}
                  data-subset={d.subset ?? ''}
                  data-observed={d.observedPercent}
                  data-configured={d.configuredPercent}
                >
                  <td title={d.workload}>{d.subset || d.version || '(all)'}</td>
                  <td className="demo-bar-cell">
                    <Bar percent={d.observedPercent} kind="prometheus" />
                  </td>
                  <td className="num">{d.observedPercent}%</td>
                  <td className="num muted">{d.requestsPerSecond.toFixed(1)}/s</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}

function HowToConfigure({ detail }: { detail: string }) {
  return (
    <div className="small" data-testid="prometheus-howto">
      <p>
        Prometheus is not configured. Start meshscope with <code>meshscope serve --prometheus URL</code> (or set{' '}
        <code>MESHSCOPE_PROMETHEUS_URL</code>) to compare the configured split with what the sidecars report (
        <code>istio_requests_total</code>, as Kiali reads it).
      </p>
      <p>
        For this demo: <code>meshscope demo prometheus-config &gt; prometheus.yml</code> prints a scrape config for the demo pods (1 s
        interval, <code>/stats/prometheus</code>); run <code>prometheus --config.file=prometheus.yml</code> and pass its URL.
      </p>
      <p className="muted">({detail})</p>
    </div>
  );
}
