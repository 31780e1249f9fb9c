// validateEnvoyFilter's errors (pkg/config/validation/envoyfilter/envoyfilter.go), one case per rule of its table test
// (envoyfilter_test.go TestValidateEnvoyFilter: "missing applyTo", "missing patch", "missing patch operation",
// "missing patch value for non-remove operation", "invalid regex for proxy version", "listener/route/cluster class
// objects cannot have non … match", "filter match has no name", "subfilter match …"), written here from the rules.
import { describe, expect, it } from 'vitest';
import type { EnvoyFilterSpec } from '../istio';
import { checkEnvoyFilter } from './envoyFilter';

type Patch = NonNullable<EnvoyFilterSpec['configPatches']>[number];
const one = (p: Patch) => checkEnvoyFilter({ configPatches: [p] });
const value = { name: 'x' };
const HCM = 'envoy.filters.network.http_connection_manager';

describe('checkEnvoyFilter (validateEnvoyFilter)', () => {
  it('the patch basics, each ending the patch checks', () => {
    expect(one({ patch: { operation: 'ADD', value } })).toEqual([
      { path: 'spec.configPatches[0].applyTo', message: 'Envoy filter: missing applyTo' },
    ]);
    expect(one({ applyTo: 'CLUSTER' })[0]?.message).toBe('Envoy filter: missing patch');
    expect(one({ applyTo: 'CLUSTER', patch: { value } })[0]?.message).toBe('Envoy filter: missing patch operation');
    expect(one({ applyTo: 'CLUSTER', patch: { operation: 'MERGE' } })[0]?.message).toBe(
      'Envoy filter: missing patch value for non-remove operation',
    );
    expect(one({ applyTo: 'CLUSTER', patch: { operation: 'REMOVE' } })).toEqual([]);
  });

  it('a proxyVersion that is not a regex (Go regexp: `++` is an invalid nested repetition)', () => {
    const r = one({ applyTo: 'CLUSTER', match: { proxy: { proxyVersion: 'a++' } }, patch: { operation: 'MERGE', value } });
    expect(r).toHaveLength(1);
    expect(r[0]?.path).toBe('spec.configPatches[0].match.proxy.proxyVersion');
    expect(r[0]?.message).toMatch(/^Envoy filter: invalid regex for proxy version, \[error parsing regexp: /);
    // Over 1024 characters is only a warning (ignored by istiod at translation).
    expect(
      one({ applyTo: 'CLUSTER', match: { proxy: { proxyVersion: `(${'a'.repeat(1100)}` } }, patch: { operation: 'MERGE', value } }),
    ).toEqual([]);
  });

  it('the match object must be of the applyTo class', () => {
    const listener = { listener: { portNumber: 80 } };
    expect(one({ applyTo: 'HTTP_FILTER', match: { cluster: { name: 'c' } }, patch: { operation: 'MERGE', value } })[0]?.message).toBe(
      'Envoy filter: applyTo for listener class objects cannot have non listener match',
    );
    expect(one({ applyTo: 'ROUTE_CONFIGURATION', match: listener, patch: { operation: 'MERGE', value } })[0]?.message).toBe(
      'Envoy filter: applyTo for http route class objects cannot have non route configuration match',
    );
    expect(one({ applyTo: 'CLUSTER', match: listener, patch: { operation: 'MERGE', value } })[0]?.message).toBe(
      'Envoy filter: applyTo for cluster class objects cannot have non cluster match',
    );
    // LISTENER_FILTER is in no class of that switch: any match passes.
    expect(one({ applyTo: 'LISTENER_FILTER', match: { cluster: { name: 'c' } }, patch: { operation: 'ADD', value } })).toEqual([]);
    // No object match at all (context only): nothing to check.
    expect(one({ applyTo: 'CLUSTER', match: { context: 'GATEWAY' }, patch: { operation: 'MERGE', value } })).toEqual([]);
  });

  it('filter and sub-filter matches', () => {
    const fm = (applyTo: Patch['applyTo'], filter: object) =>
      one({ applyTo, match: { listener: { filterChain: { filter } } }, patch: { operation: 'MERGE', value } })[0]?.message;
    expect(fm('NETWORK_FILTER', {})).toBe('Envoy filter: filter match has no name to match on');
    expect(fm('NETWORK_FILTER', { name: HCM, subFilter: { name: 'r' } })).toBe(
      'Envoy filter: subfilter match can be used with applyTo HTTP_FILTER only',
    );
    expect(fm('HTTP_FILTER', { name: 'envoy.filters.network.tcp_proxy', subFilter: { name: 'r' } })).toBe(
      `Envoy filter: subfilter match requires filter match with ${HCM}`,
    );
    expect(fm('HTTP_FILTER', { name: HCM, subFilter: {} })).toBe('Envoy filter: subfilter match has no name to match on');
    // The deprecated HCM name is accepted; an HTTP_FILTER with another network filter and no sub-filter is valid.
    expect(fm('HTTP_FILTER', { name: 'envoy.http_connection_manager', subFilter: { name: 'r' } })).toBeUndefined();
    expect(fm('HTTP_FILTER', { name: `${HCM}.InternalAddressConfig` })).toBeUndefined();
  });
});
