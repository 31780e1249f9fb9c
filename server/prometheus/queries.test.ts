// PromQL built from request values: Kiali's service-node and outgoing queries (kiali/kiali
// graph/telemetry/istio/istio.go), with every value a quoted literal (Prometheus's string-literal escapes)
// and regex metacharacters escaped inside `=~` (RE2), so no request value can change the query's shape.
import { describe, expect, it } from 'vitest';
import { promString, regexLiteral } from './client';
import { GROUP_BY, outgoingQuery, serviceQueries } from './queries';

describe('Kiali queries', () => {
  it('a cluster service: 1.a unserved (source, destination_workload unknown) and 1.b served (destination)', () => {
    const q = serviceQueries({
      host: 'products.catalog.svc.cluster.local',
      cluster: { name: 'products', namespace: 'catalog' },
      windowSeconds: 10,
    });
    expect(q.unserved).toBe(
      `sum(rate(istio_requests_total{reporter="source",destination_workload="unknown",destination_service=~"^products\\\\.catalog\\\\..*$"} [10s])) by (${GROUP_BY}) > 0`,
    );
    expect(q.served).toBe(
      `sum(rate(istio_requests_total{reporter="destination",destination_service_namespace="catalog",destination_service=~"^products\\\\.catalog\\\\..*$"} [10s])) by (${GROUP_BY},destination_version) > 0`,
    );
    expect(q.reporter).toBe('destination');
  });

  it('ambient namespaces read waypoint telemetry too; a source narrows both queries', () => {
    const q = serviceQueries({
      host: 'r.ns.svc.cluster.local',
      cluster: { name: 'r', namespace: 'ns' },
      windowSeconds: 5,
      ambient: true,
      source: { workload: 'storefront-v1', namespace: 'shop' },
    });
    expect(q.served).toContain('reporter=~"waypoint|destination"');
    expect(q.unserved).toContain('source_workload_namespace="shop",source_workload="storefront-v1"');
    expect(q.served).toContain('source_workload_namespace="shop",source_workload="storefront-v1"');
  });

  it('a host outside the cluster is matched exactly', () => {
    expect(serviceQueries({ host: 'api.example.com', windowSeconds: 60 }).served).toContain('destination_service="api.example.com"');
  });

  it('the window is whole seconds 1–3600, else no query', () => {
    expect(() => outgoingQuery(0)).toThrow();
    expect(() => outgoingQuery(1.5)).toThrow();
    expect(() => outgoingQuery(3601)).toThrow();
    expect(outgoingQuery(60)).toContain('istio_requests_total{reporter="source"} [60s]');
  });

  it('literals: quotes, backslashes and newlines escaped; regex metacharacters escaped before quoting', () => {
    expect(promString('a"} or vector(1) #')).toBe('"a\\"} or vector(1) #"');
    expect(promString('a\\b\nc')).toBe('"a\\\\b\\nc"');
    expect(regexLiteral('a.b*(c)|d')).toBe('a\\.b\\*\\(c\\)\\|d');
  });
});
