'use client';
// Request checks (where a request goes through one proxy, live and with the draft, side by side; a
// weighted destination is shown as its distribution) and routing contracts with pass / fail.
import { useState } from 'react';
import type { ProxySummary } from '@/server/api/contract';
import type { CheckOutcome, ContractResult, RequestCheck, RequestCheckResult, RoutingContract } from '@/server/sandbox/types';
import { checkFromForm, type CheckForm, clusterLabel } from '../model/checks';
import { contractFromCheck, contractsYaml } from '../model/contracts';
import { downloadText } from '../download';

/** Under the ambient profile: through which waypoint the request goes, or why it bypasses one. */
function WaypointVerdict({ o, testId }: { o: CheckOutcome; testId: string }) {
  const w = o.result.ambient?.waypoint;
  if (!w) return null;
  return (
    <span className="small muted" data-testid={`${testId}-waypoint`} data-used={w.used} title={w.message}>
      {w.used ? `via waypoint ${w.name ?? ''}` : `bypasses waypoints (${w.reason ?? 'no waypoint'})`}
    </span>
  );
}

function Outcome({ o, testId }: { o: CheckOutcome; testId: string }) {
  return (
    <>
      <Destination o={o} testId={testId} />
      <WaypointVerdict o={o} testId={testId} />
    </>
  );
}

function Destination({ o, testId }: { o: CheckOutcome; testId: string }) {
  if (o.error || o.result.error)
    return (
      <span className="error-text" data-testid={testId}>
        {o.error ?? o.result.error}
      </span>
    );
  const dist = Object.entries(o.distribution ?? {}).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (dist.length === 0)
    return (
      <span className="muted" data-testid={testId}>
        {o.result.route ? `route ${o.result.route}` : 'no cluster'}
      </span>
    );
  return (
    <span
      className="sb-dist"
      data-testid={testId}
      data-distribution={JSON.stringify(Object.fromEntries(dist.map(([c, p]) => [clusterLabel(c), p])))}
    >
      {dist.map(([c, p]) => (
        <span key={c} className="sb-dist-row" title={c}>
          <span className="sb-bar" style={{ width: `${Math.max(2, p)}%` }} />
          <span className="mono">{clusterLabel(c)}</span> <span className="weight">{p}%</span>
        </span>
      ))}
    </span>
  );
}

function CheckEditor({
  proxies,
  ambientPods = [],
  onAdd,
}: {
  proxies: readonly ProxySummary[];
  /** Ambient pods (`POD.NS`, no proxy of their own): their checks walk ztunnel and the destination's waypoint. */
  ambientPods?: readonly string[];
  onAdd: (c: RequestCheck) => void;
}) {
  const [f, setF] = useState<CheckForm>({ proxy: '', method: 'GET', host: '', path: '/', header: '' });
  const set = (patch: Partial<CheckForm>) => setF((x) => ({ ...x, ...patch }));
  const check = checkFromForm(f, proxies);
  return (
    <form
      className="sb-check-form toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        if (check) onAdd(check);
      }}
    >
      <label>
        from proxy{' '}
        <select value={f.proxy} onChange={(e) => set({ proxy: e.target.value })} data-testid="check-proxy">
          <option value="">choose…</option>
          {ambientPods.length ? (
            <optgroup label="ambient pods (through ztunnel)">
              {ambientPods.map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </optgroup>
          ) : null}
          {proxies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id}
            </option>
          ))}
        </select>
      </label>
      <select value={f.method} onChange={(e) => set({ method: e.target.value })} aria-label="method" data-testid="check-method">
        {['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'].map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
      <input
        placeholder="host:port"
        value={f.host}
        onChange={(e) => set({ host: e.target.value })}
        aria-label="host and port"
        data-testid="check-host"
      />
      <input
        placeholder="/path?query"
        value={f.path}
        onChange={(e) => set({ path: e.target.value })}
        aria-label="path"
        data-testid="check-path"
      />
      <input
        placeholder="header: value (optional)"
        value={f.header}
        onChange={(e) => set({ header: e.target.value })}
        aria-label="header"
      />
      <button type="submit" disabled={!check} data-testid="check-add">
        add check
      </button>
    </form>
  );
}

function Contracts({
  contracts,
  results,
  onChange,
}: {
  contracts: readonly RoutingContract[];
  results: readonly ContractResult[];
  onChange: (c: RoutingContract[]) => void;
}) {
  const byName = new Map(results.map((r) => [r.contract.name, r]));
  return (
    <div data-testid="sandbox-contracts">
      <h3 className="sb-h3">
        Routing contracts <span className="muted small">kept in this browser; run them in CI with meshscope check --contracts</span>
      </h3>
      <table className="table">
        <thead>
          <tr>
            <th>contract</th>
            <th>expects</th>
            <th>on the draft</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {contracts.map((c) => {
            const r = byName.get(c.name);
            return (
              <tr key={c.name} data-testid="contract-row">
                <td className="mono small">{c.name}</td>
                <td className="mono small">
                  {'error' in c.expect
                    ? `error: ${c.expect.error}`
                    : 'host' in c.expect
                      ? `${c.expect.host}${c.expect.subset ? ` ${c.expect.subset}` : ''}`
                      : `${clusterLabel(c.expect.cluster)}${'minPercent' in c.expect && c.expect.minPercent !== undefined ? ` ${c.expect.minPercent}–${c.expect.maxPercent ?? 100}%` : ''}`}
                </td>
                <td className={r ? (r.pass ? 'sb-pass' : 'sb-fail') : 'muted'} title={r?.detail}>
                  {r ? (r.pass ? 'pass' : `FAIL: ${r.detail}`) : '…'}
                </td>
                <td>
                  <button type="button" className="linklike" onClick={() => onChange(contracts.filter((x) => x !== c))}>
                    remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="small">
        <button type="button" className="linklike" onClick={() => downloadText('contracts.yaml', contractsYaml(contracts))}>
          Download contracts.yaml
        </button>
      </p>
    </div>
  );
}

export function ChecksPanel({
  checks,
  results,
  contracts = [],
  contractResults = [],
  proxies,
  ambientPods,
  onChange,
  onContracts = () => {},
}: {
  checks: readonly RequestCheck[];
  results: readonly RequestCheckResult[];
  /** Saved contracts, and their results on the draft. */
  contracts?: readonly RoutingContract[];
  contractResults?: readonly ContractResult[] | undefined;
  proxies: readonly ProxySummary[];
  /** Under the ambient profile: ambient pods offered as check sources. */
  ambientPods?: readonly string[];
  onChange: (checks: RequestCheck[]) => void;
  onContracts?: (contracts: RoutingContract[]) => void;
}) {
  const byName = new Map(results.map((r) => [JSON.stringify(r.check.request) + r.check.proxy, r]));
  return (
    <section className="panel" data-testid="sandbox-checks">
      <h2>Request checks</h2>
      <CheckEditor proxies={proxies} ambientPods={ambientPods ?? []} onAdd={(c) => onChange([...checks, c])} />
      {checks.length === 0 ? (
        <p className="muted small">
          Add a request to see where it goes today and with the draft (e.g. productpage → GET reviews:9080/reviews/1).
        </p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>request</th>
              <th>live</th>
              <th>draft</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {checks.map((c, i) => {
              const r = byName.get(JSON.stringify(c.request) + c.proxy);
              const contract = r ? contractFromCheck(c, r.draft) : undefined;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: checks are a list the user orders; equal ones may repeat.
                <tr key={`${c.name}${i}`} data-testid="check-row" data-name={c.name}>
                  <td className="mono small">
                    {c.name}
                    {r?.changed ? <span className="badge warn">changed</span> : null}
                  </td>
                  <td>{r ? <Outcome o={r.live} testId="check-live" /> : <span className="muted">…</span>}</td>
                  <td>{r ? <Outcome o={r.draft} testId="check-draft" /> : <span className="muted">…</span>}</td>
                  <td className="small">
                    {contract ? (
                      <button
                        type="button"
                        className="linklike"
                        title="keep what the draft does to this request as a routing contract"
                        onClick={() => onContracts([...contracts.filter((x) => x.name !== contract.name), contract])}
                      >
                        save as contract
                      </button>
                    ) : null}
                    <br />
                    <button
                      type="button"
                      className="linklike"
                      onClick={() => onChange(checks.filter((_, j) => j !== i))}
                      aria-label={`remove ${c.name}`}
                    >
                      remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {contracts.length ? <Contracts contracts={contracts} results={contractResults} onChange={onContracts} /> : null}
    </section>
  );
}
