'use client';
// The Security tab of a mesh proxy: the AuthorizationPolicies that apply (in the order their RBAC filters run)
// with their rules and RBAC policy names, the ones that do not and why; the inbound ports' transport security
// (which chains accept plaintext, which terminate mTLS) and each cluster's upstream TLS, as the config dump has them.
import { useMemo } from 'react';
import type { ProxySecurity, SecurityPolicyView } from '@/server/api/contract';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { clusterTls, inboundTls } from './model/securityDump';

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
        <h2>Inbound ports: transport security</h2>
        <p className="muted small">
          From the inbound listener's filter chains. Which PeerAuthentication (or the mesh default) sets each port's mode is not shown by
          this build.
        </p>
        <table className="grid small" data-testid="security-ports">
          <thead>
            <tr>
              <th>port</th>
              <th>mode</th>
              <th>chains</th>
            </tr>
          </thead>
          <tbody>
            {ports.map((p) => (
              <tr key={p.port}>
                <td className="mono">{p.port === 0 ? 'other ports (passthrough)' : p.port}</td>
                <td>{p.summary}</td>
                <td className="mono">
                  {p.chains.map((c) => (
                    <div key={`${c.chain}|${c.transport}|${c.alpn.join(',')}`}>
                      {c.transport}
                      {c.alpn.length ? ` [${c.alpn.join(', ')}]` : ''}
                      {c.rbacFilters ? ` · ${c.rbacFilters} RBAC filter${c.rbacFilters > 1 ? 's' : ''}` : ''}
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section>
        <h2>Clusters: upstream TLS</h2>
        <details>
          <summary>{clusters.length} clusters</summary>
          <table className="grid small" data-testid="security-clusters">
            <thead>
              <tr>
                <th>cluster</th>
                <th>TLS</th>
              </tr>
            </thead>
            <tbody>
              {clusters.map((c) => (
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
