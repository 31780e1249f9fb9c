// IST0171 on the status meshscope computes for Gateway API objects, as Istio's conditions.ConditionAnalyzer
// reports it (analyzers_test.go "ConditionAnalyzer": one message per negative condition, object
// `Gateway ns/name` / `HTTPRoute ns/name`; listener conditions and Accepted=True are not reported).
import { describe, expect, it } from 'vitest';
import type { RawInput } from '../model/inputs';
import { buildSnapshot } from '../model/snapshot';
import { analyze } from './index';

const origin = { source: 'file' as const, file: 'gw.yaml' };
const obj = (o: Record<string, unknown>, doc: number): RawInput => ({ object: o, origin: { ...origin, doc } });

describe('conditions.ConditionAnalyzer (IST0171) for the Gateway API', () => {
  const snap = buildSnapshot(
    [
      obj({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { selector: { app: 'a' }, ports: [{ port: 80 }] } }, 0),
      obj(
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'Gateway',
          metadata: { name: 'gw' },
          spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
        },
        1,
      ),
      obj(
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'HTTPRoute',
          metadata: { name: 'ok' },
          spec: { parentRefs: [{ name: 'gw' }], rules: [{ backendRefs: [{ name: 'a', port: 80 }] }] },
        },
        2,
      ),
      obj(
        {
          apiVersion: 'gateway.networking.k8s.io/v1',
          kind: 'HTTPRoute',
          metadata: { name: 'missing-backend' },
          spec: { parentRefs: [{ name: 'gw' }], rules: [{ backendRefs: [{ name: 'nope', port: 80 }] }] },
        },
        3,
      ),
    ],
    { version: 1 },
  );
  const found = analyze(snap, { only: ['conditions.ConditionAnalyzer'] }).findings;

  it('the Gateway without its deployment Service is not Programmed; the route with a missing backend is not ResolvedRefs', () => {
    expect(found.map((f) => [f.code, f.object, f.path])).toEqual([
      ['IST0171', 'Gateway default/gw', 'status.conditions'],
      ['IST0171', 'HTTPRoute default/missing-backend', 'status.parents[0].conditions'],
    ]);
    expect(found[1]?.message).toBe(
      'A condition with a negative status is present: type=ResolvedRefs, reason=BackendNotFound, message=backend(nope.default.svc.cluster.local) not found.',
    );
    expect(found[0]?.origin).toMatchObject({ file: 'gw.yaml', doc: 1 });
  });
});
