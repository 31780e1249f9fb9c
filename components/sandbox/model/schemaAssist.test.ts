// Completion and hover come from Istio's schemas as @kubernetes-models/istio ships them (extracted by
// scripts/gen-istio-schemas.mjs); the YAML path is found by indentation so it works on broken drafts.
import { describe, expect, it } from 'vitest';
import schemas from '../schema/istio.json';
import { describeType, keyCompletions, keyInfo, schemaAt, type SchemaSet, yamlPosition } from './schemaAssist';

const set = schemas as SchemaSet;
const VS = `apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts:
  - reviews
  http:
  - route:
    - destination:
        host: reviews
      weight: 100
    `;
const at = (text: string, marker: string) => text.indexOf(marker) + marker.length;

describe('yamlPosition', () => {
  it('finds the key chain through flush and indented sequences', () => {
    expect(yamlPosition(VS, at(VS, 'host:')).path).toEqual(['spec', 'http', '[]', 'route', '[]', 'destination']);
    expect(yamlPosition(VS, at(VS, 'host:')).key).toBe('host');
    expect(yamlPosition(VS, at(VS, '      weight:')).path).toEqual(['spec', 'http', '[]', 'route', '[]']);
    expect(yamlPosition(VS, VS.length).path).toEqual(['spec', 'http', '[]']);
    expect(yamlPosition(VS, VS.length).kind).toBe('VirtualService');
  });

  it('takes the key being typed as the prefix, in the document the cursor is in', () => {
    const t = `kind: Gateway\n---\nkind: DestinationRule\nspec:\n  traffic`;
    const p = yamlPosition(t, t.length);
    expect(p).toMatchObject({ kind: 'DestinationRule', path: ['spec'], prefix: 'traffic' });
  });
});

describe('schema completion and hover (Istio networking schemas)', () => {
  it('the schemas come from the package and hold the kinds the sandbox edits', () => {
    expect(set.source).toMatch(/^@kubernetes-models\/istio@/);
    expect(Object.keys(set.kinds).sort()).toEqual(['DestinationRule', 'Gateway', 'ServiceEntry', 'Sidecar', 'VirtualService']);
  });

  it('offers HTTPRoute fields inside an http rule (Istio API: HTTPRoute has match, route, timeout, retries, fault…)', () => {
    const labels = keyCompletions(set, yamlPosition(VS, VS.length)).map((c) => c.label);
    for (const k of ['match', 'route', 'timeout', 'retries', 'fault', 'mirror', 'rewrite', 'headers']) expect(labels).toContain(k);
    expect(labels).not.toContain('mirror_percent'); // the package's snake_case aliases are not offered
  });

  it('filters by prefix; DestinationRule spec keys', () => {
    const t = `kind: DestinationRule\nspec:\n  traffic`;
    expect(keyCompletions(set, yamlPosition(t, t.length)).map((c) => c.label)).toEqual(['trafficPolicy']);
    const top = keyCompletions(set, yamlPosition('', 0)).map((c) => c.label);
    expect(top).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  it('hover names the path and type; an unknown field says so', () => {
    expect(keyInfo(set, yamlPosition(VS, at(VS, 'weight:')))).toEqual({ path: 'spec.http[].route[].weight', type: 'integer (int32)' });
    const bad = `kind: VirtualService\nspec:\n  hostz: []`;
    expect(keyInfo(set, yamlPosition(bad, at(bad, 'hostz:')))?.type).toMatch(/not a field of VirtualService/);
    expect(describeType(schemaAt(set, 'VirtualService', ['spec', 'hosts']))).toBe('array of string');
  });
});
