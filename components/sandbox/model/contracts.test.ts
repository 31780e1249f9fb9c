import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { RequestCheck } from '@/server/sandbox/types';
import { contractFromCheck, contractsYaml, readStoredContracts } from './contracts';

const check: RequestCheck = {
  name: 'pp → GET reviews:9080/',
  proxy: 'pp.default',
  request: { mode: 'outbound', port: 9080, host: 'reviews:9080' },
};
const C = (s: string) => `outbound|9080|${s}|reviews.default.svc.cluster.local`;

describe('contractFromCheck', () => {
  it('one cluster → expect that cluster; a split → the largest share at exactly its percent; an error → that error', () => {
    expect(contractFromCheck(check, { result: { rejected: [] }, distribution: { [C('v1')]: 100 } })?.expect).toEqual({ cluster: C('v1') });
    expect(contractFromCheck(check, { result: { rejected: [] }, distribution: { [C('v1')]: 20, [C('v2')]: 80 } })?.expect).toEqual({
      cluster: C('v2'),
      minPercent: 80,
      maxPercent: 80,
    });
    expect(contractFromCheck(check, { result: { rejected: [], error: 'no route matched' } })?.expect).toEqual({
      error: 'no route matched',
    });
    expect(contractFromCheck(check, { result: { rejected: [] } })).toBeUndefined();
  });

  it('downloads as the documented file shape and survives storage', () => {
    const c = contractFromCheck(check, { result: { rejected: [] }, distribution: { [C('v1')]: 100 } });
    expect(parse(contractsYaml(c ? [c] : []))).toEqual({ contracts: [c] });
    expect(readStoredContracts(JSON.stringify([c]))).toEqual([c]);
    expect(readStoredContracts('not json')).toEqual([]);
    expect(readStoredContracts('[{"x":1}]')).toEqual([]);
  });
});
