'use client';
// /demo: live traffic shifting on the demo data plane. Pick a service; its VirtualService's weights as
// sliders (sum kept at 100) beside the configured and observed shares of real calls; canary steps, the
// `x-user: tester` header route, fault injection with the error rate, and reset. Every change is a draft
// applied through the sandbox (components/data/demo.ts), exactly as a user would apply it. Three columns:
// configured, observed in process (the demo data plane's own calls) and observed through Prometheus
// (TrafficColumns.tsx); on a cluster without the demo data plane, the services with a weighted route.
import { useEffect, useMemo, useRef, useState } from 'react';
import { applyDraft, resetDemo, type ServiceTraffic, useDemoTraffic } from '@/components/data/demo';
import { DemoRouteGraph } from './DemoRouteGraph';
import { type DemoEdit, draftYaml, editFromSpec } from './draft';
import { TrafficBars } from './TrafficBars';
import { ConfiguredColumn, PrometheusColumn } from './TrafficColumns';
import { CANARY_STEPS, canaryStep, rebalance } from './weights';

/** The observed bars use the last second (polled every 0.5 s), so a change shows within about a second. */
const WINDOW_SECONDS = 1;

const short = (host: string) => host.split('.')[0] ?? host;

export function DemoView({ initialToken }: { initialToken?: string }) {
  const traffic = useDemoTraffic(WINDOW_SECONDS);
  const report = traffic.data;
  const services = report?.services ?? [];
  const [host, setHost] = useState<string>();
  const svc = services.find((s) => s.host === host) ?? services[0];
  const [token, setToken] = useState(initialToken ?? '');
  const [edit, setEdit] = useState<DemoEdit>();
  const [status, setStatus] = useState<{ ok: boolean; message: string }>();
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The page's state starts from the live VirtualService, and follows it until the user edits.
  const dirty = useRef(false);
  const specKey = JSON.stringify([svc?.host, svc?.virtualService?.spec, svc?.subsets]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: specKey stands for the live rule
  useEffect(() => {
    if (!svc || dirty.current) return;
    setEdit(
      editFromSpec(svc.virtualService?.spec, svc.subsets, {
        abortPercent: svc.fault?.abortPercent ?? 0,
        delayPercent: svc.fault?.delayPercent ?? 0,
      }),
    );
  }, [specKey]);

  async function apply(next: DemoEdit) {
    if (!svc?.virtualService) return;
    setBusy(true);
    const r = await applyDraft(draftYaml(svc.virtualService, svc.host, next), token).catch((e: Error) => ({
      ok: false,
      message: e.message,
    }));
    setStatus(r.ok ? { ok: true, message: `applied to ${svc.virtualService.namespace}/${svc.virtualService.name}` } : r);
    dirty.current = false;
    setBusy(false);
  }
  const change = (next: DemoEdit, delayMs = 0) => {
    dirty.current = true;
    setEdit(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void apply(next), delayMs);
  };
  async function reset() {
    setBusy(true);
    const r = await resetDemo(token).catch((e: Error) => ({ ok: false, message: e.message }));
    setStatus(r.ok ? { ok: true, message: 'reset: the demo mesh as shipped' } : r);
    dirty.current = false;
    setBusy(false);
  }

  const sum = useMemo(() => Object.values(edit?.weights ?? {}).reduce((a, b) => a + b, 0), [edit]);

  return (
    <>
      <h1>Traffic demo</h1>
      <p className="muted small" data-testid="demo-status">
        {report?.running
          ? `${report.clients} xDS clients at ${report.ratePerClient} req/s each, ${report.backends.length} pod servers on loopback; observed over the last ${report.windowSeconds} s`
          : 'no demo traffic running'}
      </p>
      {report && report.problems.length > 0 && (
        <ul className="error-text small" data-testid="demo-problems">
          {report.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {traffic.error && <p className="error-text">{String(traffic.error.message)}</p>}
      {services.length > 0 && (
        <nav className="toolbar demo-services" aria-label="services">
          {services.map((s) => (
            <button
              key={s.host}
              type="button"
              aria-pressed={s.host === svc?.host}
              onClick={() => {
                dirty.current = false;
                setHost(s.host);
              }}
            >
              {short(s.host)}
            </button>
          ))}
        </nav>
      )}
      {svc && edit && (
        <div className="demo-grid">
          <section className="panel demo-controls" aria-label="controls">
            <h2>
              {svc.host}:{svc.port}
            </h2>
            <p className="muted small">
              {svc.callers[0] && (
                <>
                  <a href={`/proxies/${encodeURIComponent(svc.callers[0])}?tab=graph`}>route graph of {svc.callers[0]}</a>
                  {' · '}
                </>
              )}
              {svc.virtualService
                ? `VirtualService ${svc.virtualService.namespace}/${svc.virtualService.name}, catch-all route`
                : 'no VirtualService: the whole service, round robin'}
            </p>
            <fieldset disabled={!svc.virtualService}>
              <legend>Weights (sum {sum})</legend>
              {Object.entries(edit.weights).map(([subset, w]) => (
                <PercentSlider
                  key={subset}
                  label={subset || '(all)'}
                  ariaLabel={`weight ${subset}`}
                  value={w}
                  onChange={(v) => change({ ...edit, weights: rebalance(edit.weights, subset, v) }, 400)}
                />
              ))}
              <div className="toolbar">
                <span className="muted small">Canary:</span>
                {CANARY_STEPS.map((first) => (
                  <button key={first} type="button" onClick={() => change({ ...edit, weights: canaryStep(svc.subsets, first) })}>
                    {first}/{100 - first}
                  </button>
                ))}
              </div>
            </fieldset>
            <fieldset disabled={!svc.virtualService}>
              <legend>Header match</legend>
              <label>
                <input type="checkbox" checked={edit.tester} onChange={(e) => change({ ...edit, tester: e.target.checked })} /> send{' '}
                <code>x-user: tester</code> to {edit.testerSubset} ({report?.testerPercent ?? 0}% of the calls carry it)
              </label>
            </fieldset>
            <FaultControls edit={edit} onChange={(f) => change({ ...edit, fault: f }, 400)} />
            <div className="toolbar">
              <button type="button" onClick={() => void reset()} disabled={busy}>
                Reset demo
              </button>
              {!initialToken && (
                <label className="small">
                  apply token{' '}
                  <input
                    type="password"
                    value={token}
                    onChange={(e) => setToken(e.target.value)}
                    placeholder="printed by meshscope serve"
                  />
                </label>
              )}
            </div>
            {status && (
              <p className={status.ok ? 'small' : 'error-text small'} data-testid="apply-status">
                {status.message}
              </p>
            )}
          </section>
          <div className="demo-columns">
            <ConfiguredColumn svc={svc} />
            <ServicePanel svc={svc} running={report?.running ?? false} />
            <PrometheusColumn host={svc.host} />
          </div>
        </div>
      )}
      {svc?.callers[0] && <DemoRouteGraph proxyId={svc.callers[0]} host={svc.host} port={svc.port} />}
    </>
  );
}

/** A 0–100 range input with its label and value (weights and fault percentages). */
function PercentSlider(p: { label: string; ariaLabel: string; value: number; onChange: (v: number) => void }) {
  return (
    <label className="demo-slider">
      <span>{p.label}</span>
      <input
        type="range"
        min={0}
        max={100}
        value={p.value}
        aria-label={p.ariaLabel}
        onChange={(e) => p.onChange(Math.max(0, Math.min(100, Number(e.target.value) || 0)))}
      />
      <output className="num">{p.value}%</output>
    </label>
  );
}

function FaultControls({ edit, onChange }: { edit: DemoEdit; onChange: (f: DemoEdit['fault']) => void }) {
  const f = edit.fault;
  return (
    <fieldset>
      <legend>Fault injection (catch-all route)</legend>
      <PercentSlider
        label="abort %"
        ariaLabel="abort percent"
        value={f.abortPercent}
        onChange={(v) => onChange({ ...f, abortPercent: v })}
      />
      <PercentSlider
        label="delay %"
        ariaLabel="delay percent"
        value={f.delayPercent}
        onChange={(v) => onChange({ ...f, delayPercent: v })}
      />
      <label className="small">
        delay{' '}
        <input
          type="number"
          min={1}
          max={2500}
          value={f.delayMs}
          aria-label="delay ms"
          onChange={(e) => onChange({ ...f, delayMs: Math.max(1, Math.min(2500, Number(e.target.value) || 1)) })}
        />{' '}
        ms
      </label>
    </fieldset>
  );
}

function ServicePanel({ svc, running }: { svc: ServiceTraffic; running: boolean }) {
  return (
    <section className="panel demo-column" aria-label="traffic" data-testid="column-in-process">
      <h2>Observed in process</h2>
      {!running && (
        <p className="muted small" data-testid="no-in-process">
          No demo data plane here: meshscope counts calls itself only on the demo mesh (or <code>--demo-traffic</code>). On a cluster, watch
          the Prometheus column.
        </p>
      )}
      <dl className="facts">
        <dt>calls</dt>
        <dd data-testid="calls">{svc.requests}</dd>
        <dt>error rate</dt>
        <dd data-testid="error-rate" data-value={svc.errorPercent} className={svc.errorPercent > 0 ? 'error-text' : undefined}>
          {svc.errorPercent}%{' '}
          {Object.entries(svc.errorsByCode)
            .map(([code, n]) => `${code} ${n}`)
            .join(', ')}
        </dd>
        <dt>mean latency</dt>
        <dd>{svc.meanLatencyMs} ms</dd>
      </dl>
      <p className="muted small">
        <span className="demo-key configured" /> configured <span className="demo-key observed" /> observed (real calls)
      </p>
      <TrafficBars destinations={svc.destinations} caption="plain calls (catch-all route)" testId="plain-bars" />
      {svc.tester.requests > 0 && (
        <TrafficBars destinations={svc.tester.destinations} caption="calls with x-user: tester" testId="tester-bars" />
      )}
    </section>
  );
}
