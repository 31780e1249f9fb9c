// The Mesh config page's view, rendered on the server from a real snapshot's /api/mesh body: where the
// config came from, the settings the translator reads, the located problems and the MeshConfig JSON.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { meshConfigView } from '@/server/api/meshConfig';
import { optionsOf } from '@/server/model/mesh';
import { buildSnapshot } from '@/server/model/snapshot';
import { MeshConfigView, originText } from './MeshConfigView';

const render = (yaml: string | undefined) => {
  const inputs =
    yaml === undefined
      ? []
      : [
          {
            object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'istio', namespace: 'istio-system' }, data: { mesh: yaml } },
            origin: { source: 'file' as const, file: 'mesh.yaml', doc: 2 },
          },
        ];
  const snapshot = buildSnapshot(inputs, { version: 7 });
  const body = meshConfigView({ snapshot, options: optionsOf(snapshot) }).body;
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MeshConfigView initial={body} />
    </QueryClientProvider>,
  );
};

describe('MeshConfigView', () => {
  it('names the ConfigMap it came from and shows the effective settings', () => {
    const html = render('outboundTrafficPolicy: {mode: REGISTRY_ONLY}\ninboundTrafficPolicy: {mode: LOCALHOST}\n');
    expect(html).toContain('ConfigMap istio-system/istio, key mesh (mesh.yaml #2)');
    expect(html).toContain('<td class="mono">outboundTrafficPolicy.mode</td><td class="mono">REGISTRY_ONLY</td>');
    expect(html).toContain('<td class="mono">inboundTrafficPolicy.mode</td><td class="mono">LOCALHOST</td>');
    expect(html).toContain('<td class="mono">enableAutoMtls</td><td class="mono">true</td>');
    expect(html).toContain('&quot;rootNamespace&quot;: &quot;istio-system&quot;');
    expect(html).not.toContain('data-testid="mesh-problems"');
  });

  it("lists the mesh config's problems; defaults say so", () => {
    const html = render('connectTimeout: never\n');
    expect(html).toContain('data-testid="mesh-problems"');
    expect(html).toContain('data.mesh.connectTimeout');
    expect(render(undefined)).toContain('istiod&#x27;s defaults');
    expect(originText({ source: 'file', file: '/etc/m.yaml' })).toBe('--mesh-config /etc/m.yaml');
  });
});
