// The Drift view rendered on the server from real drift bodies (the engine on Istio's comparator pair,
// istioctl/pkg/writer/compare/testdata; and a NACK as Envoy records it, envoy admin UpdateFailureState).
import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { POD_ID, translatedDump, withReviewsWeights } from '@/server/archive/bugReport.testing';
import { computeDrift } from '@/server/drift/index';
import { configDumpFixture } from '@/server/testing/paths';
import { DriftView } from './DriftView';

const dump = (f: string) => JSON.parse(readFileSync(configDumpFixture(f), 'utf8')) as { configs: Record<string, unknown>[] };

describe('DriftView', () => {
  it('shows the verdict, counts per type, each differing resource with its paths, and the trace-both button', () => {
    const body = computeDrift(dump('sidecar-config_dump.json'), dump('sidecar-config_dump_diff.json'));
    const html = renderToStaticMarkup(<DriftView body={body} proxyId="p.default" trace={{ proxyId: 'p.default', mode: 'outbound' }} />);
    expect(html).toContain('data-in-sync="false"');
    expect(html).toContain('Not in sync: 2 changed, 2 only in Envoy, 2 only in meshscope');
    expect(html.match(/data-testid="drift-resource"/g)).toHaveLength(6);
    expect(html).toContain('data-name="connect_terminate" data-change="changed"');
    expect(html).toContain('typed_config.use_remote_address</li>');
    expect(html).toContain('data-testid="drift-trace-both"');
    // Nothing is traced until clicked (the two POST /api/simulate run in the browser).
    expect(html).not.toContain('data-testid="drift-trace"');
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
    expect(html).not.toContain('drift-trace-both');
    const same = renderToStaticMarkup(<DriftView body={computeDrift(a, a)} />);
    expect(same).toContain('data-in-sync="true"');
    expect(same).toContain('<strong>In sync</strong>');
  });
});

describe('DriftView route changes', () => {
  it('a weight change on a route offers "trace on both" for that route', () => {
    const body = computeDrift(translatedDump(), withReviewsWeights(translatedDump(), 50, 50));
    expect(body.routes).toHaveLength(1);
    const html = renderToStaticMarkup(<DriftView body={body} proxyId={POD_ID} trace={{ proxyId: POD_ID, mode: 'outbound' }} />);
    expect(html.match(/data-testid="drift-trace-route"/g)).toHaveLength(1);
    expect(html).toContain('reviews.default.svc.cluster.local:9080');
    expect(renderToStaticMarkup(<DriftView body={body} />)).not.toContain('drift-trace-route');
  });
});
