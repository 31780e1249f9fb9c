// Provenance config paths (networking/util AddConfigInfoMetadata writes /apis/GROUP/VERSION/namespaces/NS/KIND/NAME,
// KIND in Istio's kebab case). kebabKind has a precomputed table for the kinds on every route and cluster: it must
// agree with the general conversion for those and for any other kind.
import { describe, expect, it } from 'vitest';
import { configPath, kebabKind, parseConfigPath } from './provenance';

describe('kebabKind', () => {
  it('writes the kinds Istio puts in config paths in kebab case', () => {
    expect(kebabKind('VirtualService')).toBe('virtual-service');
    expect(kebabKind('DestinationRule')).toBe('destination-rule');
    expect(kebabKind('ServiceEntry')).toBe('service-entry');
    expect(kebabKind('Gateway')).toBe('gateway');
    expect(kebabKind('EnvoyFilter')).toBe('envoy-filter');
    expect(kebabKind('Sidecar')).toBe('sidecar');
    // not in the table: the general rule
    expect(kebabKind('PeerAuthentication')).toBe('peer-authentication');
    expect(kebabKind('WorkloadEntry')).toBe('workload-entry');
  });

  it('round-trips through parseConfigPath', () => {
    const p = configPath('VirtualService', 'default', 'reviews');
    expect(p).toBe('/apis/networking.istio.io/v1/namespaces/default/virtual-service/reviews');
    expect(parseConfigPath(p)).toEqual({
      group: 'networking.istio.io',
      version: 'v1',
      namespace: 'default',
      kind: 'VirtualService',
      name: 'reviews',
    });
  });
});
