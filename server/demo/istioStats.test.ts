// The stats-filter labels of a demo call, checked against Istio's rules: istio.io "Istio Standard Metrics"
// (labels and their meaning), Istio's canonical service/revision derivation (pkg/model labels: the
// service.istio.io/canonical-name → app.kubernetes.io/name → app → workload chain; revision → `latest`),
// Envoy's response flags (FI: fault-injected abort, DI: fault-injected delay, UT: upstream timeout,
// UF: upstream connection failure) and gRFC A33's HTTP-to-gRPC status mapping for fault aborts.
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type PodModel } from '../model/mesh';
import { callOutcome, durationMs, grpcStatusOfHttp, peerOf, requestLabels, UNKNOWN_PEER } from './istioStats';

const pod = (labels: Record<string, string>, owner?: string): PodModel =>
  ({
    name: 'p-0',
    namespace: 'catalog',
    labels,
    annotations: {},
    ip: '127.0.9.30',
    ready: true,
    serviceAccount: 'products',
    namedPorts: {},
    containerPorts: [9080],
    proxy: 'sidecar',
    locality: { region: '', zone: '', subzone: '' },
    ...(owner ? { owner: { kind: 'Deployment', name: owner } } : {}),
    creationTimestamp: '',
    origin: { file: 'x', index: 0 },
  }) as unknown as PodModel;

describe('peer metadata (what metadata exchange tells the other sidecar)', () => {
  it('workload is the Deployment; canonical service/revision from app/version; principal from the service account', () => {
    expect(peerOf(pod({ app: 'products', version: 'v2' }, 'products-v2'), DEFAULT_OPTIONS)).toEqual({
      workload: 'products-v2',
      namespace: 'catalog',
      canonicalService: 'products',
      canonicalRevision: 'v2',
      app: 'products',
      version: 'v2',
      principal: 'spiffe://cluster.local/ns/catalog/sa/products',
      cluster: 'Kubernetes',
    });
  });
  it('the canonical labels win over app/version; without any: the workload and `latest`, app/version `unknown`', () => {
    const p = peerOf(
      pod({ 'service.istio.io/canonical-name': 'shop', 'service.istio.io/canonical-revision': 'r7', app: 'x', version: 'v9' }, 'd'),
      DEFAULT_OPTIONS,
    );
    expect([p.canonicalService, p.canonicalRevision]).toEqual(['shop', 'r7']);
    const bare = peerOf(pod({}, 'lonely'), DEFAULT_OPTIONS);
    expect([bare.canonicalService, bare.canonicalRevision, bare.app, bare.version]).toEqual(['lonely', 'latest', 'unknown', 'unknown']);
  });
});

describe('call outcomes (response_code, grpc_response_status, response_flags)', () => {
  it('an answered gRPC call is 200 / 0 / -', () => {
    expect(callOutcome(undefined, { answered: true, latencyMs: 3 })).toEqual({
      responseCode: '200',
      grpcStatus: '0',
      flags: '-',
      reached: true,
    });
  });
  it('an abort fault with httpStatus 503 is 503 / 14 (UNAVAILABLE, gRFC A33) / FI and reaches no pod', () => {
    expect(grpcStatusOfHttp(503)).toBe(grpc.status.UNAVAILABLE);
    expect(
      callOutcome({ abortPercent: 50, abortStatus: 503 }, { answered: false, errorCode: grpc.status.UNAVAILABLE, latencyMs: 1 }),
    ).toEqual({
      responseCode: '503',
      grpcStatus: '14',
      flags: 'FI',
      reached: false,
    });
  });
  it('a delayed answer on a route with a delay fault is DI; a fast one on the same route is not', () => {
    const f = { delayPercent: 50, delay: '2s' };
    expect(callOutcome(f, { answered: true, latencyMs: 2010 }).flags).toBe('DI');
    expect(callOutcome(f, { answered: true, latencyMs: 4 }).flags).toBe('-');
    expect(durationMs('250ms')).toBe(250);
    expect(durationMs('1.5s')).toBe(1500);
  });
  it('DEADLINE_EXCEEDED is 504 / 4 / UT; UNAVAILABLE without an abort is 503 / 14 / UF', () => {
    expect(callOutcome(undefined, { answered: false, errorCode: grpc.status.DEADLINE_EXCEEDED, latencyMs: 5000 })).toMatchObject({
      responseCode: '504',
      grpcStatus: '4',
      flags: 'UT',
    });
    expect(callOutcome(undefined, { answered: false, errorCode: grpc.status.UNAVAILABLE, latencyMs: 1 })).toMatchObject({
      responseCode: '503',
      grpcStatus: '14',
      flags: 'UF',
    });
  });
});

describe('request labels', () => {
  const src = peerOf(pod({ app: 'storefront', version: 'v1' }, 'storefront-v1'), DEFAULT_OPTIONS);
  const dst = peerOf(pod({ app: 'products', version: 'v1' }, 'products-v1'), DEFAULT_OPTIONS);
  const host = 'products.catalog.svc.cluster.local';
  it('the destination service is the FQDN, its name and namespace split off the .svc suffix', () => {
    const l = requestLabels('source', src, dst, host, DEFAULT_OPTIONS, callOutcome(undefined, { answered: true, latencyMs: 1 }));
    expect(l).toMatchObject({
      reporter: 'source',
      source_workload: 'storefront-v1',
      destination_workload: 'products-v1',
      destination_service: host,
      destination_service_name: 'products',
      destination_service_namespace: 'catalog',
      destination_canonical_revision: 'v1',
      request_protocol: 'grpc',
    });
  });
  it('the source reporter of an aborted call knows no destination workload: `unknown`', () => {
    const l = requestLabels(
      'source',
      src,
      UNKNOWN_PEER,
      host,
      DEFAULT_OPTIONS,
      callOutcome({ abortPercent: 100, abortStatus: 503 }, { answered: false, errorCode: 14, latencyMs: 1 }),
    );
    expect([
      l.destination_workload,
      l.destination_workload_namespace,
      l.destination_version,
      l.response_flags,
      l.destination_service,
    ]).toEqual(['unknown', 'unknown', 'unknown', 'FI', host]);
  });
  it('a destination reporter on mTLS says mutual_tls and knows the caller principal', () => {
    const l = requestLabels('destination', src, dst, host, DEFAULT_OPTIONS, callOutcome(undefined, { answered: true, latencyMs: 1 }));
    expect([l.connection_security_policy, l.source_principal]).toEqual(['mutual_tls', 'spiffe://cluster.local/ns/catalog/sa/products']);
  });
});
