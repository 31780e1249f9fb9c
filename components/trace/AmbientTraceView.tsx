'use client';
// /trace: "does this request go through the waypoint?" from any ambient pod (or sidecar): pick the caller,
// describe the request, and see simulate's answer — the ambient path (AmbientHops) and, when a waypoint is on
// it, the waypoint's own hops (HopList). The form lives in the URL (?from=POD.NS&host=…&port=…&path=…).
import { useState, type FormEvent } from 'react';
import { useSimulation } from '@/components/data/useSimulation';
import { useUrlState } from '@/components/common/useUrlState';
import type { SimRequest } from '@/server/simulate/types';
import { AmbientHops } from './AmbientHops';
import { HopList } from './HopList';
import { traceView } from './model/hops';
import './trace.css';

export interface TraceSource {
  id: string;
  kind: 'ambient' | 'sidecar';
}

export function AmbientTraceView({ sources }: { sources: TraceSource[] }) {
  const { params, write } = useUrlState();
  const from = params.get('from') ?? sources[0]?.id ?? '';
  const host = params.get('host') ?? '';
  const port = params.get('port') ?? '';
  const path = params.get('path') ?? '/';
  const [f, setF] = useState({ from, host, port, path });
  const portNum = Number(port || /:(\d+)$/.exec(host)?.[1] || 80);
  const active = params.has('host') || params.has('port');
  const request: SimRequest | undefined = active && from ? { mode: 'outbound', host, port: portNum, path } : undefined;
  const sim = useSimulation({ proxyId: from || null, dump: undefined }, request);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(f)) v ? next.set(k, v) : next.delete(k);
    if (!next.get('port') && !next.get('host')) next.set('port', '80');
    write(next, true);
  };
  const result = sim.data;
  return (
    <section className="panel trace" data-testid="ambient-trace-page">
      <h2>Does this request go through the waypoint?</h2>
      <form className="trace-form" onSubmit={submit} aria-label="Trace a request from a workload">
        <label>
          from
          <select name="from" value={f.from} onChange={(e) => setF({ ...f, from: e.target.value })}>
            {sources.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id} ({s.kind})
              </option>
            ))}
          </select>
        </label>
        <label className="wide">
          host (authority)
          <input name="host" value={f.host} placeholder="reviews:9080" onChange={(e) => setF({ ...f, host: e.target.value })} />
        </label>
        <label>
          port
          <input name="port" value={f.port} placeholder="from host" size={6} onChange={(e) => setF({ ...f, port: e.target.value })} />
        </label>
        <label className="wide">
          path
          <input name="path" value={f.path} onChange={(e) => setF({ ...f, path: e.target.value })} />
        </label>
        <button type="submit" disabled={sim.isFetching}>
          Trace
        </button>
      </form>
      {sources.length === 0 ? (
        <p className="muted">
          No ambient pod or sidecar to trace from (run with --ambient, and enrol pods: ambient.istio.io/redirection: enabled).
        </p>
      ) : null}
      {sim.error ? <p className="error-text">The simulation failed: {sim.error.message}</p> : null}
      {result?.ambient ? <AmbientHops trace={result.ambient} /> : null}
      {result && (result.listener || !result.ambient) ? (
        <div className="trace-body">
          <h3>{result.ambient?.waypoint.used ? 'Inside the waypoint' : 'The request'}</h3>
          <HopList view={traceView(result, 'plaintext')} />
        </div>
      ) : null}
      {result?.ambient && !result.listener && result.endpoints ? (
        <p className="small" data-testid="ambient-direct-endpoints">
          Straight to <span className="mono">{result.endpoints.join(', ')}</span>
          {result.error ? <span className="error-text"> ✗ {result.error}</span> : null}
        </p>
      ) : null}
    </section>
  );
}
