'use client';
// "Trace this request on meshscope's config and on Envoy's" (issue 21 §4): one request simulated on both sides
// of a drift — a pod's meshscope translation and its own Envoy dump (POST /api/simulate {proxyId, request,
// config: "meshscope" | "live"}), or the two uploaded dumps of /dump's compare ({dump, request} each) — and the
// two answers side by side, hop by hop, the hops where they differ marked.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { SimulateBody } from '@/server/api/contract';
import type { SimMode, SimRequest } from '@/server/simulate/types';
import { dumpFingerprint, postSimulate } from '@/components/data/simulate';
import { traceRows } from './traceBoth';

/** What the two sides are: a pod (meshscope ↔ its Envoy) or two dumps (expected ↔ actual). */
export type TraceSides = { mode: SimMode } & ({ proxyId: string } | { expectedDump: unknown; actualDump: unknown });

function bodies(sides: TraceSides, request: SimRequest): [SimulateBody, SimulateBody] {
  if ('proxyId' in sides)
    return [
      { proxyId: sides.proxyId, request, config: 'meshscope' },
      { proxyId: sides.proxyId, request, config: 'live' },
    ];
  return [
    { dump: sides.expectedDump, request },
    { dump: sides.actualDump, request },
  ];
}

function sideKey(sides: TraceSides): string {
  return 'proxyId' in sides ? sides.proxyId : `${dumpFingerprint(sides.expectedDump)}/${dumpFingerprint(sides.actualDump)}`;
}

interface FormState {
  host: string;
  port: string;
  path: string;
  method: string;
  headers: string;
}

const toForm = (r: SimRequest): FormState => ({
  host: r.host ?? '',
  port: String(r.port),
  path: r.path ?? '/',
  method: r.method ?? 'GET',
  headers: Object.entries(r.headers ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n'),
});

function fromForm(f: FormState, mode: SimMode): SimRequest | string {
  if (!/^\d{1,5}$/.test(f.port.trim()) || Number(f.port) > 65535) return `port must be a number 0–65535, got "${f.port}"`;
  const path = f.path.trim() || '/';
  if (!path.startsWith('/')) return `path must start with /, got "${f.path}"`;
  const headers: Record<string, string> = {};
  for (const line of f.headers.split('\n')) {
    if (!line.trim()) continue;
    const i = line.indexOf(':');
    if (i <= 0) return `header must look like "name: value", got "${line}"`;
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const r: SimRequest = { mode, port: Number(f.port), path, method: (f.method.trim() || 'GET').toUpperCase() };
  if (f.host.trim()) r.host = f.host.trim();
  if (Object.keys(headers).length) r.headers = headers;
  return r;
}

export interface TraceBothProps {
  sides: TraceSides;
  labels: { expected: string; actual: string };
  /** The request to trace first (from the route clicked). */
  request: SimRequest;
  onClose: () => void;
}

export function TraceBoth({ sides, labels, request: initial, onClose }: TraceBothProps) {
  const [request, setRequest] = useState(initial);
  const [form, setForm] = useState(() => toForm(initial));
  const [formError, setFormError] = useState<string>();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    setRequest(initial);
    setForm(toForm(initial));
    ref.current?.scrollIntoView({ block: 'nearest' });
  }, [initial]);
  const [expectedBody, actualBody] = bodies(sides, request);
  const key = ['meshscope', 'trace-both', sideKey(sides), JSON.stringify(request)];
  const expected = useQuery({
    queryKey: [...key, 'expected'],
    queryFn: ({ signal }) => postSimulate(expectedBody, signal),
    retry: false,
  });
  const actual = useQuery({
    queryKey: [...key, 'actual'],
    queryFn: ({ signal }) => postSimulate(actualBody, signal),
    retry: false,
  });
  const rows = expected.data && actual.data ? traceRows(expected.data, actual.data) : undefined;
  const differing = rows?.filter((r) => r.differs).length ?? 0;
  const set = (k: keyof FormState) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  return (
    <section className="drift-trace panel" data-testid="drift-trace" ref={ref} aria-label="Trace on both sides">
      <header className="drift-trace-head">
        <h3>
          Trace on {labels.expected}&apos;s config and on {labels.actual}&apos;s
        </h3>
        <button type="button" className="link" onClick={onClose}>
          close
        </button>
      </header>
      <form
        className="drift-trace-form small"
        onSubmit={(e) => {
          e.preventDefault();
          const r = fromForm(form, sides.mode);
          if (typeof r === 'string') setFormError(r);
          else {
            setFormError(undefined);
            setRequest(r);
          }
        }}
      >
        <span className="muted">{request.mode}</span>
        <label>
          host <input value={form.host} onChange={set('host')} data-testid="drift-trace-host" />
        </label>
        <label>
          port <input value={form.port} onChange={set('port')} size={6} data-testid="drift-trace-port" />
        </label>
        <label>
          method <input value={form.method} onChange={set('method')} size={7} />
        </label>
        <label>
          path <input value={form.path} onChange={set('path')} data-testid="drift-trace-path" />
        </label>
        <label>
          headers <textarea value={form.headers} onChange={set('headers')} rows={1} placeholder="name: value" />
        </label>
        <button type="submit">Trace both</button>
        {formError ? <span className="error-text">{formError}</span> : null}
      </form>
      {expected.error || actual.error ? (
        <p className="error-text" data-testid="drift-trace-error">
          {expected.error ? `${labels.expected}: ${expected.error.message}` : ''}
          {expected.error && actual.error ? ' · ' : ''}
          {actual.error ? `${labels.actual}: ${actual.error.message}` : ''}
        </p>
      ) : null}
      {!rows && !(expected.error || actual.error) ? (
        <p className="muted small" role="status">
          Tracing…
        </p>
      ) : null}
      {rows ? (
        <>
          <p className={`small ${differing ? 'error-text' : 'in-sync'}`} data-testid="drift-trace-verdict" data-differing={differing}>
            {differing
              ? `The two sides differ at ${differing} hop${differing === 1 ? '' : 's'}.`
              : 'Both sides handle this request the same way.'}
          </p>
          <table className="drift-trace-table small" data-testid="drift-trace-table">
            <thead>
              <tr>
                <th>hop</th>
                <th>{labels.expected}</th>
                <th>{labels.actual}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.field} data-field={r.field} data-differs={String(r.differs)} className={r.differs ? 'differs' : undefined}>
                  <td>{r.label}</td>
                  <td className="mono" data-testid="drift-trace-expected">
                    {r.expected}
                  </td>
                  <td className="mono" data-testid="drift-trace-actual">
                    {r.actual}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {actual.data?.live ? (
            <p className="muted small" data-testid="drift-trace-live">
              {labels.actual}&apos;s side: the pod&apos;s dump from {actual.data.live.source}, read {actual.data.live.fetchedAt}.
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
