// The form helpers and the YAML stay in sync both ways: reading the form from YAML, and writing a
// helper's change into the YAML with comments, the other documents and the Istio sample layout kept.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { draftDocs, editDraftDoc, usesFlushSequences } from './draftDocs';
import {
  addDestination,
  addMatch,
  addSubset,
  readForm,
  removeDestination,
  setDestinationSubset,
  setRouteWeights,
  setRuleFault,
  setRuleRetries,
  setRuleTimeout,
} from './form';
import { setWeight } from './weights';

// As Istio's samples write it (bookinfo virtual-service-all-v1.yaml: sequences flush with their key).
const REVIEWS = `# reviews: all traffic to v1
apiVersion: networking.istio.io/v1
kind: VirtualService
metadata:
  name: reviews
spec:
  hosts:
  - reviews
  http:
  - route:
    - destination:
        host: reviews # the Service
        subset: v1
`;
const DR = `apiVersion: networking.istio.io/v1
kind: DestinationRule
metadata:
  name: reviews
spec:
  host: reviews
  subsets:
  - name: v1
    labels:
      version: v1
`;

describe('readForm (YAML → form)', () => {
  it('reads a VirtualService rule: destinations, effective weights, match words', () => {
    const f = readForm(REVIEWS, 0);
    expect(f?.kind).toBe('VirtualService');
    if (f?.kind !== 'VirtualService') return;
    expect(f.hosts).toEqual(['reviews']);
    expect(f.http[0]?.destinations).toEqual([{ host: 'reviews', subset: 'v1' }]);
    expect(f.http[0]?.weights).toEqual([100]);
    expect(f.http[0]?.matches).toEqual([]);
  });

  it('reads DestinationRule subsets, and gives nothing for a document that does not parse', () => {
    const f = readForm(DR, 0);
    expect(f).toEqual({ kind: 'DestinationRule', name: 'reviews', host: 'reviews', subsets: [{ name: 'v1', labels: { version: 'v1' } }] });
    expect(readForm('spec: [unclosed', 0)).toBeUndefined();
  });
});

describe('form → YAML', () => {
  it('add a destination then slide 100/0 → 50/50: weights written, comments and layout kept', () => {
    let t = addDestination(REVIEWS, 0, 0, { host: 'reviews', subset: 'v2' });
    let f = readForm(t, 0);
    expect(f?.kind === 'VirtualService' && f.http[0]?.weights).toEqual([100, 0]);
    t = setRouteWeights(t, 0, 0, setWeight([100, 0], 1, 50));
    f = readForm(t, 0);
    expect(f?.kind === 'VirtualService' && f.http[0]?.destinations).toEqual([
      { host: 'reviews', subset: 'v1', weight: 50 },
      { host: 'reviews', subset: 'v2', weight: 50 },
    ]);
    expect(t).toContain('# reviews: all traffic to v1');
    expect(t).toContain('# the Service');
    expect(t).toContain('  http:\n  - route:'); // still flush, as written
  });

  it('removing a destination gives its share to the rest; a lone destination loses its weight (it gets 100%)', () => {
    const two = setRouteWeights(addDestination(REVIEWS, 0, 0, { host: 'reviews', subset: 'v2' }), 0, 0, [50, 50]);
    const one = removeDestination(two, 0, 0, 1, [100]);
    expect(parse(one).spec.http[0].route).toEqual([{ destination: { host: 'reviews', subset: 'v1' } }]);
    expect(parse(setDestinationSubset(one, 0, 0, 0, 'v3')).spec.http[0].route[0].destination.subset).toBe('v3');
  });

  it('adds matches (path / header / query), first in the rule', () => {
    let t = addMatch(REVIEWS, 0, 0, { on: 'header', name: 'end-user', type: 'exact', value: 'jason' });
    t = addMatch(t, 0, 0, { on: 'path', type: 'prefix', value: '/api' });
    t = addMatch(t, 0, 0, { on: 'query', name: 'debug', type: 'exact', value: '1' });
    const rule = parse(t).spec.http[0];
    expect(Object.keys(rule)[0]).toBe('match');
    expect(rule.match).toEqual([
      { headers: { 'end-user': { exact: 'jason' } } },
      { uri: { prefix: '/api' } },
      { queryParams: { debug: { exact: '1' } } },
    ]);
    const f = readForm(t, 0);
    expect(f?.kind === 'VirtualService' && f.http[0]?.matches).toEqual([
      'header end-user exact jason',
      'uri prefix /api',
      'query debug exact 1',
    ]);
  });

  it('sets and clears timeout, retries and fault', () => {
    let t = setRuleTimeout(REVIEWS, 0, 0, '2s');
    t = setRuleRetries(t, 0, 0, { attempts: 3, perTryTimeout: '500ms' });
    t = setRuleFault(t, 0, 0, { delay: { percent: 10, fixedDelay: '5s' }, abort: { percent: 5, httpStatus: 503 } });
    const rule = parse(t).spec.http[0];
    expect(rule.timeout).toBe('2s');
    expect(rule.retries).toEqual({ attempts: 3, perTryTimeout: '500ms' });
    expect(rule.fault).toEqual({
      delay: { percentage: { value: 10 }, fixedDelay: '5s' },
      abort: { percentage: { value: 5 }, httpStatus: 503 },
    });
    const f = readForm(t, 0);
    expect(f?.kind === 'VirtualService' && f.http[0]?.fault).toEqual({
      delay: { percent: 10, fixedDelay: '5s' },
      abort: { percent: 5, httpStatus: 503 },
    });
    t = setRuleFault(setRuleRetries(setRuleTimeout(t, 0, 0, undefined), 0, 0, undefined), 0, 0, undefined);
    expect(parse(t).spec.http[0]).toEqual(parse(REVIEWS).spec.http[0]);
  });

  it('adds a DestinationRule subset', () => {
    const t = addSubset(DR, 0, 'v2', { version: 'v2' });
    expect(parse(t).spec.subsets.map((s: { name: string }) => s.name)).toEqual(['v1', 'v2']);
  });
});

describe('multi-document drafts', () => {
  const TWO = `${REVIEWS}---\n${DR}`;
  it('lists the objects with their lines', () => {
    expect(draftDocs(TWO).map((d) => [d.kind, d.name, d.line])).toEqual([
      ['VirtualService', 'reviews', 2],
      ['DestinationRule', 'reviews', 15],
    ]);
  });

  it('editing one document leaves the others byte for byte', () => {
    const t = addSubset(TWO, 1, 'v2', { version: 'v2' });
    expect(t.startsWith(REVIEWS)).toBe(true);
    const t2 = setRuleTimeout(TWO, 0, 0, '1s');
    expect(t2.endsWith(`---\n${DR}`)).toBe(true);
  });

  it('a document that does not parse is not edited', () => {
    const bad = `${REVIEWS}---\nspec: [oops\n`;
    expect(editDraftDoc(bad, 1, (d) => d.set('x', 1))).toBe(bad);
  });

  it('detects flush vs indented sequences', () => {
    expect(usesFlushSequences(REVIEWS)).toBe(true);
    expect(usesFlushSequences('spec:\n  hosts:\n    - a\n')).toBe(false);
  });
});
