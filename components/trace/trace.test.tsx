// Trace components rendered on the server (no browser) from a real simulation: Bookinfo productpage →
// reviews under virtual-service-reviews-jason-v2-v3.yaml (http[0] end-user: jason → v2, http[1] → v3).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { readConfigDump } from '@/server/envoy/dumpReader';
import { DEFAULT_OPTIONS } from '@/server/model/mesh';
import { buildSnapshot } from '@/server/model/snapshot';
import { configDumpFor } from '@/server/pipeline/configDump';
import { simulate } from '@/server/simulate/index';
import { loadPaths } from '@/server/sources/file/loadPaths';
import { bookinfo } from '@/server/testing/paths';
import { HopList } from './HopList';
import { emptyForm } from './model/form';
import { traceView } from './model/hops';
import { TraceFormView } from './TraceFormView';

const r = loadPaths([
  bookinfo('platform', 'bookinfo.yaml'),
  bookinfo('networking', 'destination-rule-all.yaml'),
  bookinfo('networking', 'virtual-service-reviews-jason-v2-v3.yaml'),
]);
const snapshot = buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
const productpage = snapshot.proxies.find((p) => p.labels['app'] === 'productpage')!.id;
const config = readConfigDump(configDumpFor(snapshot, productpage, { options: DEFAULT_OPTIONS })!.dump).config;
const trace = (headers?: Record<string, string>) =>
  simulate(config, { mode: 'outbound', port: 9080, host: 'reviews:9080', path: '/reviews/1', ...(headers ? { headers } : {}) });

describe('HopList', () => {
  it('with end-user: jason shows subset v2 and every hop', () => {
    const html = renderToStaticMarkup(<HopList view={traceView(trace({ 'end-user': 'jason' }))} />);
    expect(html).toContain('data-testid="hop-listener"');
    expect(html).toContain('0.0.0.0_9080');
    expect(html).toContain('reviews.default.svc.cluster.local:9080');
    expect(html).toContain('outbound|9080|v2|reviews.default.svc.cluster.local');
    expect(html).toMatch(/data-testid="trace-subset"[^>]*>subset v2</);
    expect(html).not.toContain('trace-error');
  });

  it('without the header shows v3, with route #0 rejected because the header is absent', () => {
    const html = renderToStaticMarkup(
      <HopList view={traceView(trace())} routeLabel={(i) => (i === 0 ? 'prefix /, header end-user exact "jason"' : undefined)} />,
    );
    expect(html).toMatch(/subset v3/);
    expect(html).toMatch(/data-hop="route" data-index="0"[\s\S]*header end-user absent/);
    expect(html).toContain('#0 prefix /, header end-user exact &quot;jason&quot;');
  });

  it('a request nobody serves: Istio\'s wording (traffic.go "no listener matched"); an unknown outbound port is passed through', () => {
    const html = renderToStaticMarkup(<HopList view={traceView(simulate(config, { mode: 'gateway', port: 1234, host: 'x' }))} />);
    expect(html).toContain('data-testid="trace-error">✗ no listener matched<');
    // Sidecars with outboundTrafficPolicy ALLOW_ANY: virtualOutbound's catch-all chain → PassthroughCluster.
    const pass = renderToStaticMarkup(<HopList view={traceView(simulate(config, { mode: 'outbound', port: 1234, host: 'x' }))} />);
    expect(pass).toContain('data-cluster="PassthroughCluster"');
    expect(pass).not.toContain('trace-error');
  });
});

describe('TraceFormView', () => {
  it('renders the submitted values and the form error', () => {
    const html = renderToStaticMarkup(
      <TraceFormView
        initial={{ ...emptyForm('outbound'), host: 'reviews:9080', headers: ['end-user: jason'] }}
        onSubmit={() => undefined}
        error="port must be a number"
      />,
    );
    expect(html).toContain('value="reviews:9080"');
    expect(html).toContain('end-user: jason</textarea>');
    expect(html).toContain('port must be a number');
  });
});
