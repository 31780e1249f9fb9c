'use client';
// The Security tab of a mesh proxy: the AuthorizationPolicies that apply (in the order their RBAC filters run)
// with their rules and RBAC policy names, the ones that do not and why; the inbound ports' transport security
// with the PeerAuthentication (or mesh default) that sets each port's mode next to the dump's chains, and each
// cluster's upstream TLS (auto mTLS / DestinationRule / none). Without a mesh model (uploaded dumps) only the dump view.
import { useMemo } from 'react';
import type { ProxySecurity, SecurityPolicyView } from '@/server/api/contract';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { clusterTls, inboundTls } from './model/securityDump';
import { type ClusterMtlsRow, clusterRows, portRows } from './model/securityMtls';

/** `12 auto mTLS, 1 DestinationRule, 3 none`. */
function clusterSummary(rows: readonly ClusterMtlsRow[]): string {
  const n = (p: (r: ClusterMtlsRow) => boolean) => rows.filter(p).length;
  const auto = n((r) => r.tls === 'auto mTLS');
  const none = n((r) => r.tls === 'none');
  return `${auto} auto mTLS, ${rows.length - auto - none} DestinationRule, ${none} none`;
}

function Policy({ p }: { p: SecurityPolicyView }) {
  return (
    <li className="security-policy" data-testid="security-policy" data-policy={`${p.namespace}/${p.name}`}>
      <div>
        <span className={`badge action-${p.action.toLowerCase()}`}>{p.action}</span>{' '}
        <strong className="mono">
          {p.namespace}/{p.name}
        </strong>
        {p.dryRun ? <span className="badge"> dry-run</span> : null}
        {p.provider ? <span className="muted small"> provider {p.provider}</span> : null}
        <span className="muted small"> — applies: {p.reason}</span>
      </div>
      {p.rules.length ? (
        <ol className="security-rules" start={0}>
          {p.rules.map((r) => (
            <li key={r.index} data-testid="security-rule">
              <span className="mono small muted">{r.rbacName}</span>
              <ul className="small">
                {[...r.from.map((f) => `from ${f}`), ...r.to.map((t) => `to ${t}`), ...r.when.map((w) => `when ${w}`)].map((line) => (
                  <li key={line}>{line}</li>
                ))}
                {r.from.length + r.to.length + r.when.length === 0 ? <li>matches every request</li> : null}
              </ul>
            </li>
          ))}
        </ol>
      ) : null}
      {p.notes.map((n) => (
        <p key={n} className="muted small">
          {n}
        </p>
      ))}
    </li>
  );
}

export function SecurityTab({ security, dump }: { security: ProxySecurity | undefined; dump: unknown }) {
  const config = useMemo(() => readConfigDump(dump).config, [dump]);
  const ports = useMemo(() => inboundTls(config), [config]);
  const clusters = useMemo(() => clusterTls(config), [config]);
  const policies = security?.policies ?? [];
  const mtlsPorts = useMemo(() => (security?.mtls ? portRows(security.mtls.inbound) : undefined), [security]);
  const mtlsClusters = useMemo(() => (security?.mtls ? clusterRows(security.mtls.clusters) : undefined), [security]);
  const portList = [...new Set([...(mtlsPorts ?? []).map((p) => p.port), ...ports.map((p) => p.port)])].sort((a, b) => a - b);
  return (
    <div className="security-tab" data-testid="security-tab">
      <section>
        <h2>Authorization policies</h2>
        {policies.length === 0 ? (
          <p className="muted" data-testid="security-no-policies">
            No AuthorizationPolicy applies to this proxy: every request is allowed.
          </p>
        ) : (
          <>
            <p className="muted small">
              In the order Envoy runs their RBAC filters: CUSTOM, AUDIT, DENY, then ALLOW (when ALLOW policies apply, a request none of them
              matches is denied).
            </p>
            <ul className="security-policies">
              {policies.map((p) => (
                <Policy key={`${p.namespace}/${p.name}`} p={p} />
              ))}
            </ul>
          </>
        )}
        {security?.notApplied.length ? (
          <details>
            <summary>{security.notApplied.length} policies of this namespace or the root namespace do not apply</summary>
            <ul className="small" data-testid="security-not-applied">
              {security.notApplied.map((n) => (
                <li key={`${n.namespace}/${n.name}`}>
                  <span className="mono">
                    {n.namespace}/{n.name}
                  </span>{' '}
                  — {n.reason}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>
      <section>
        <h2>Inbound ports: mTLS</h2>
        {mtlsPorts ? (
          <p className="muted small">
            The mode istiod applies to each port and the PeerAuthentication that sets it (a workload policy's port-level mode, else the
            workload, namespace, then mesh-wide policy in the root namespace), or the mesh default (PERMISSIVE). The chains are the inbound
            listener's, from the config dump.
          </p>
        ) : (
          <p className="muted small">
            From the inbound listener's filter chains (no mesh model for this proxy: the PeerAuthentication is unknown).
          </p>
        )}
        <table className="grid small" data-testid="security-ports">
          <thead>
            <tr>
              <th>port</th>
              <th>mode</th>
              {mtlsPorts ? <th>set by</th> : null}
              <th>chains</th>
            </tr>
          </thead>
          <tbody>
            {portList.map((port) => {
              const m = mtlsPorts?.find((r) => r.port === port);
              const d = ports.find((p) => p.port === port);
              return (
                <tr key={port} data-testid="security-port" data-port={port}>
                  <td className="mono">
                    {port === 0 ? 'other ports (passthrough)' : port}
                    {m?.services.length ? <div className="muted">{m.services.join(', ')}</div> : null}
                  </td>
                  <td data-testid="security-port-mode">{m ? <strong>{m.mode}</strong> : d?.summary}</td>
                  {mtlsPorts ? (
                    <td data-testid="security-port-source" title={m?.config}>
                      {m?.source ?? '—'}
                    </td>
                  ) : null}
                  <td className="mono">
                    {(d?.chains ?? []).map((c) => (
                      <div key={`${c.chain}|${c.transport}|${c.alpn.join(',')}`}>
                        {c.transport}
                        {c.alpn.length ? ` [${c.alpn.join(', ')}]` : ''}
                        {c.rbacFilters ? ` · ${c.rbacFilters} RBAC filter${c.rbacFilters > 1 ? 's' : ''}` : ''}
                      </div>
                    ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <section>
        <h2>Clusters: upstream TLS</h2>
        <details>
          <summary>
            {mtlsClusters ? mtlsClusters.length : clusters.length} clusters
            {mtlsClusters ? ` (${clusterSummary(mtlsClusters)})` : ''}
          </summary>
          <table className="grid small" data-testid="security-clusters">
            <thead>
              <tr>
                <th>cluster</th>
                <th>TLS</th>
              </tr>
            </thead>
            <tbody>
              {mtlsClusters
                ? mtlsClusters.map((c) => (
                    <tr key={c.cluster} data-testid="security-cluster" data-cluster={c.cluster}>
                      <td className="mono">{c.cluster}</td>
                      <td title={c.config}>
                        {c.tls}
                        {c.sni ? <span className="mono small muted"> sni {c.sni}</span> : null}
                      </td>
                    </tr>
                  ))
                : clusters.map((c) => (
                    <tr key={c.cluster}>
                      <td className="mono">{c.cluster}</td>
                      <td>
                        {c.mode}
                        {c.sni ? <span className="mono small"> sni {c.sni}</span> : null}
                      </td>
                    </tr>
                  ))}
            </tbody>
          </table>
        </details>
      </section>
    </div>
  );
}
