// The Drift view rendered on the server from real drift bodies (the engine on Istio's comparator pair,
// istioctl/pkg/writer/compare/testdata; and a NACK as Envoy records it, envoy admin UpdateFailureState).
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { computeDrift } from '@/server/drift/index';
import { configDumpFixture } from '@/server/testing/paths';
import { DriftView } from './DriftView';

const dump = (f: string) => JSON.parse(readFileSync(configDumpFixture(f), 'utf8')) as { configs: Record<string, unknown>[] };

describe('DriftView', () => {
  it('shows the verdict, counts per type, each differing resource with its paths, and the trace link', () => {
    const body = computeDrift(dump('sidecar-config_dump.json'), dump('sidecar-config_dump_diff.json'));
    const html = renderToStaticMarkup(<DriftView body={body} proxyId="p.default" traceHref="/proxies/p.default?tab=trace" />);
    expect(html).toContain('data-in-sync="false"');
    expect(html).toContain('Not in sync: 2 changed, 2 only in Envoy, 2 only in meshscope');
    expect(html.match(/data-testid="drift-resource"/g)).toHaveLength(6);
    expect(html).toContain('data-name="connect_terminate" data-change="changed"');
    expect(html).toContain('typed_config.use_remote_address</li>');
    expect(html).toContain('href="/proxies/p.default?tab=trace"');
    expect(html).not.toContain('drift-nacked');
  });

  it('offline labels name the files; rejected config shows Envoy text; in sync is said so', () => {
    const a = dump('sidecar-config_dump.json');
    const b = structuredClone(a);
    const lds = b.configs.find((c) => String(c['@type']).endsWith('ListenersConfigDump')) as {
      dynamic_listeners: Record<string, unknown>[];
    };
    lds.dynamic_listeners[0]!.error_state = { details: 'duplicate listener <0.0.0.0_80> found' };
    const body = computeDrift(a, b);
    const html = renderToStaticMarkup(<DriftView body={body} labels={{ expected: 'A.json', actual: 'B.json' }} />);
    expect(html).toContain('1 rejected by Envoy');
    expect(html).toContain('duplicate listener &lt;0.0.0.0_80&gt; found');
    expect(html).toContain('<th>only in B.json</th>');
    const same = renderToStaticMarkup(<DriftView body={computeDrift(a, a)} />);
    expect(same).toContain('data-in-sync="true"');
    expect(same).toContain('<strong>In sync</strong>');
  });
});
