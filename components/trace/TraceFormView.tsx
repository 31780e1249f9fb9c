'use client';
// The trace form (mode, host, port, path, method, headers, SNI, protocol, TLS, destination address, and the
// caller's identity for AuthorizationPolicies: source principal, namespace, IP).
// Edits stay local until "Trace" submits them (the tab writes them into the URL).
import { useState, type FormEvent } from 'react';
import type { SimMode, SimProtocol, SimTls } from '@/server/simulate/types';
import type { TraceForm } from './model/form';

export interface TraceFormViewProps {
  initial: TraceForm;
  onSubmit: (f: TraceForm) => void;
  /** Why the last submitted form cannot be simulated. */
  error?: string;
  busy?: boolean;
}

const MODE_HELP: Record<SimMode, string> = {
  outbound: 'a request this proxy sends (iptables → 15001 → listener on the port)',
  inbound: 'a request this proxy receives (iptables → 15006)',
  gateway: 'a request arriving at a gateway listener on the port',
  waypoint: 'a request ztunnel tunnelled to this waypoint (starts at main_internal; give the Service VIP or pod IP as address)',
};

export function TraceFormView({ initial, onSubmit, error, busy }: TraceFormViewProps) {
  const [f, setF] = useState<TraceForm>(initial);
  const set = (patch: Partial<TraceForm>) => setF((cur) => ({ ...cur, ...patch }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(f);
  };
  return (
    <form className="trace-form" onSubmit={submit} data-testid="trace-form" aria-label="Trace a request">
      <label>
        mode
        <select name="mode" value={f.mode} onChange={(e) => set({ mode: e.target.value as SimMode })} title={MODE_HELP[f.mode]}>
          <option value="outbound">outbound</option>
          <option value="inbound">inbound</option>
          <option value="gateway">gateway</option>
          <option value="waypoint">waypoint</option>
        </select>
      </label>
      <label className="wide">
        host (authority)
        <input name="host" value={f.host} placeholder="reviews:9080" onChange={(e) => set({ host: e.target.value })} autoComplete="off" />
      </label>
      <label>
        port
        <input
          name="port"
          value={f.port}
          placeholder="from host, else 80"
          inputMode="numeric"
          onChange={(e) => set({ port: e.target.value })}
          size={8}
        />
      </label>
      <label>
        method
        <input name="method" value={f.method} onChange={(e) => set({ method: e.target.value })} size={7} list="trace-methods" />
        <datalist id="trace-methods">
          {['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'CONNECT'].map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </label>
      <label className="wide">
        path
        <input name="path" value={f.path} placeholder="/reviews/1?x=y" onChange={(e) => set({ path: e.target.value })} autoComplete="off" />
      </label>
      <label className="wide">
        headers
        <textarea
          name="headers"
          rows={Math.max(2, f.headers.length)}
          value={f.headers.join('\n')}
          placeholder="end-user: jason (one per line)"
          onChange={(e) => set({ headers: e.target.value.split('\n') })}
        />
      </label>
      <label>
        protocol
        <select name="protocol" value={f.protocol} onChange={(e) => set({ protocol: e.target.value as SimProtocol })}>
          <option value="http">http</option>
          <option value="http2">http2</option>
          <option value="tcp">tcp</option>
        </select>
      </label>
      <label>
        tls
        <select name="tls" value={f.tls} onChange={(e) => set({ tls: e.target.value as SimTls })}>
          <option value="plaintext">plaintext</option>
          <option value="tls">tls</option>
          <option value="mtls">mtls (Istio client)</option>
        </select>
      </label>
      <label>
        SNI
        <input name="sni" value={f.sni} placeholder="(host when tls)" onChange={(e) => set({ sni: e.target.value })} size={16} />
      </label>
      <label>
        destination IP
        <input name="address" value={f.address} placeholder="(optional)" onChange={(e) => set({ address: e.target.value })} size={14} />
      </label>
      <label className="wide">
        source principal
        <input
          name="sourcePrincipal"
          value={f.sourcePrincipal}
          placeholder="cluster.local/ns/default/sa/bookinfo-productpage"
          onChange={(e) => set({ sourcePrincipal: e.target.value })}
          autoComplete="off"
          title="The caller's SPIFFE identity (spiffe:// optional), matched by AuthorizationPolicy principals"
        />
      </label>
      <label>
        source namespace
        <input
          name="sourceNamespace"
          value={f.sourceNamespace}
          placeholder="(optional)"
          onChange={(e) => set({ sourceNamespace: e.target.value })}
          size={12}
        />
      </label>
      <label>
        source IP
        <input name="sourceIp" value={f.sourceIp} placeholder="(optional)" onChange={(e) => set({ sourceIp: e.target.value })} size={14} />
      </label>
      <div className="trace-actions">
        <button type="submit" data-testid="trace-submit" disabled={busy}>
          {busy ? 'Tracing…' : 'Trace'}
        </button>
        <span className="muted small">{MODE_HELP[f.mode]}</span>
      </div>
      {error ? (
        <p className="error-text" data-testid="trace-form-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
