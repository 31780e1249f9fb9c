'use client';
// The effective mesh config (GET /api/mesh): where it came from (ConfigMap istio-system/istio, the
// --mesh-config file, or istiod's defaults), the settings the translator reads, its problems, and the whole
// MeshConfig as /debug/mesh serves it. Refetched when a mesh event reaches every proxy (a mesh config change).
import { useQuery } from '@tanstack/react-query';
import { ProblemsTable } from '@/components/common/ProblemsTable';
import { fetchMeshConfig } from '@/components/data/fetchers';
import { queryKeys } from '@/components/data/queryKeys';
import type { MeshConfigResponse } from '@/server/api/contract';

/** Where the config came from, in words. */
export function originText(o: MeshConfigResponse['origin']): string {
  if (o.source === 'file') return `--mesh-config ${o.file ?? ''}`.trim();
  if (o.source === 'configmap') {
    const at = o.file ? ` (${o.file}${o.doc !== undefined ? ` #${o.doc}` : ''})` : '';
    return `ConfigMap istio-system/istio, key mesh${at}`;
  }
  return "istiod's defaults (no ConfigMap istio-system/istio and no --mesh-config)";
}

const list = (v: readonly string[]) => (v.length ? v.join(', ') : '—');

/** The settings meshscope's translator reads, in the order the README lists them. */
export function settingRows(m: MeshConfigResponse): [string, string][] {
  const o = m.options;
  const retry = o.defaultHttpRetryPolicy;
  return [
    ['outboundTrafficPolicy.mode', o.outboundTrafficPolicy],
    ['inboundTrafficPolicy.mode', o.inboundTrafficPolicy],
    ['rootNamespace', o.rootNamespace],
    ['defaultServiceExportTo', list(o.defaultServiceExportTo)],
    ['defaultVirtualServiceExportTo', list(o.defaultVirtualServiceExportTo)],
    ['defaultDestinationRuleExportTo', list(o.defaultDestinationRuleExportTo)],
    ['enableAutoMtls', String(o.enableAutoMtls)],
    ['defaultHttpRetryPolicy', retry ? JSON.stringify(retry) : 'Istio default (2 attempts)'],
    ['localityLbSetting', o.localityLbSetting ? JSON.stringify(o.localityLbSetting) : '—'],
    ['protocolDetectionTimeout', o.protocolDetectionTimeout],
    ['connectTimeout', o.connectTimeout],
    ['trustDomain', o.trustDomain],
  ];
}

export function MeshConfigView({ initial }: { initial?: MeshConfigResponse }) {
  const q = useQuery({
    queryKey: queryKeys.mesh(),
    queryFn: ({ signal }) => fetchMeshConfig(signal),
    ...(initial ? { initialData: initial } : {}),
  });
  const m = q.data;
  if (!m) return <p className="muted">{q.error ? `Could not load the mesh config: ${String(q.error)}` : 'Loading the mesh config…'}</p>;
  return (
    <>
      <h1>Mesh config</h1>
      <p data-testid="mesh-origin">
        From: <strong>{originText(m.origin)}</strong> <span className="muted">· snapshot version {m.version}</span>
      </p>
      <ProblemsTable problems={m.problems} caption="Mesh config problems" testId="mesh-problems" />
      <section className="panel">
        <table className="table" data-testid="mesh-settings">
          <caption>What the translator reads</caption>
          <thead>
            <tr>
              <th>field</th>
              <th>effective value</th>
            </tr>
          </thead>
          <tbody>
            {settingRows(m).map(([k, v]) => (
              <tr key={k} data-field={k}>
                <td className="mono">{k}</td>
                <td className="mono">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel">
        <h2>
          MeshConfig <a href="/debug/mesh?pretty">/debug/mesh</a>
        </h2>
        <pre data-testid="mesh-json">{JSON.stringify(m.config, null, 2)}</pre>
      </section>
    </>
  );
}
