// Issue #22 §2 "Drift stops counting as `unmodelled` what is now modelled": meshscope now generates Istio's telemetry
// filters (istio.stats, istio.metadata_exchange, grpc_stats) and applies EnvoyFilters, so a listener an EnvoyFilter
// stripped of istio.stats (the common "disable stats" EnvoyFilter: REMOVE on HTTP_FILTER, listener_patch.go) while
// the pod's Envoy still has it is drift — the patch did not land there — not an unmodelled telemetry difference.
// Both dumps come from meshscope's pipeline on Istio's Bookinfo: with the EnvoyFilter (expected) and without it (what
// an Envoy the patch never reached holds).
import { describe, expect, it } from 'vitest';
import { bookinfoMesh, sidecar } from '../envoyfilter/testing';
import { configDumpFor } from '../pipeline/configDump';
import { computeDrift } from './index';

const REMOVE_STATS = `
apiVersion: networking.istio.io/v1alpha3
kind: EnvoyFilter
metadata: {name: no-outbound-stats, namespace: default}
spec:
  workloadSelector: {labels: {app: productpage}}
  configPatches:
  - applyTo: HTTP_FILTER
    match:
      context: SIDECAR_OUTBOUND
      listener: {filterChain: {filter: {name: envoy.filters.network.http_connection_manager, subFilter: {name: istio.stats}}}}
    patch: {operation: REMOVE}
  - applyTo: NETWORK_FILTER
    match:
      context: SIDECAR_OUTBOUND
      listener: {portNumber: 9080, filterChain: {filter: {name: istio.stats}}}
    patch: {operation: REMOVE}
`;

describe('drift and EnvoyFilter-modelled telemetry', () => {
  const patched = bookinfoMesh(REMOVE_STATS);
  const plain = bookinfoMesh();
  const dump = (s: typeof plain) => configDumpFor(s, sidecar(s, { app: 'productpage' }).id)?.dump;

  it('the patches applied: the outbound listener 0.0.0.0_9080 has no istio.stats left in meshscope', () => {
    const report = configDumpFor(patched, sidecar(patched, { app: 'productpage' }).id)?.envoyFilters ?? [];
    expect(report[0]).toMatchObject({ applied: true });
    expect(report[0]?.targets.some((t) => t.startsWith('listener 0.0.0.0_9080 '))).toBe(true);
    expect(report[1]).toMatchObject({ applied: true });
    // Not one istio.stats (HTTP or network) left in that listener; the inbound ones keep theirs.
    const listeners = (dump(patched) as { configs: Array<Record<string, unknown>> }).configs.find((c) =>
      String(c['@type']).endsWith('ListenersConfigDump'),
    ) as { dynamic_listeners: Array<{ name: string; active_state: unknown }> };
    const text = (name: string) => JSON.stringify(listeners.dynamic_listeners.find((l) => l.name === name)?.active_state);
    expect(text('0.0.0.0_9080')).not.toContain('"istio.stats"');
    expect(text('virtualInbound')).toContain('"istio.stats"');
  });

  it('an Envoy still carrying istio.stats there is out of sync: the listener is changed, not "unmodelled"', () => {
    const d = computeDrift(dump(patched), dump(plain));
    expect(d.inSync).toBe(false);
    const l = d.resources.find((r) => r.type === 'listeners' && r.name === '0.0.0.0_9080');
    expect(l).toMatchObject({ change: 'changed' });
    expect(l?.class).toBeUndefined();
    expect(l?.paths?.some((p) => p.includes('.typed_config.http_filters['))).toBe(true);
    expect(d.resources.filter((r) => r.class === 'unmodelled')).toEqual([]);
  });

  it('the same dumps are in sync when the patch landed on both sides', () => {
    expect(computeDrift(dump(patched), dump(patched)).inSync).toBe(true);
  });
});
