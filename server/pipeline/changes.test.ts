// Store change → ADS push request (istiod: an EDS-only PushRequest for endpoint updates, a full one otherwise).
import { describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { pushRequestFor } from './changes';

describe('pushRequestFor', () => {
  it('endpoint-only changes (EndpointSlice, Pod status) push EDS only', () => {
    const req = pushRequestFor({ version: 4, endpointsOnly: true, changed: ['discovery.k8s.io/v1/EndpointSlice/default/reviews-abc'] });
    expect([...(req.types ?? [])]).toEqual([TYPE.endpoint]);
    expect(req.proxies).toBe('all');
    expect(req.reason).toContain('endpoints changed');
  });
  it('config changes push every watched type (no type filter)', () => {
    const req = pushRequestFor({ version: 5, endpointsOnly: false, changed: ['a', 'b'] });
    expect(req.types).toBeUndefined();
    expect(req.reason).toBe('config changed (2 objects)');
  });
});
