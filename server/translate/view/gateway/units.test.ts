// Gateway merging helpers against Istio's rules (model/gateway.go). Host name rules: server/model/host.
import { describe, expect, it } from 'vitest';
import type { ServiceTarget } from '../types';
import { resolvePort, sniHostsForServer } from './merge';

const target = (port: number, targetPort: number, labels: Record<string, string> = {}): ServiceTarget =>
  ({ service: { labels }, port: { name: 'p', port, protocol: 'HTTP' }, targetPort }) as unknown as ServiceTarget;

describe('model/gateway.go helpers', () => {
  it('resolvePorts (legacy selector): a service port maps to its target port (first match), else the port as-is', () => {
    const t = [target(15021, 15021), target(80, 8080), target(443, 8443)];
    expect(resolvePort(80, t)).toBe(8080);
    expect(resolvePort(443, t)).toBe(8443);
    expect(resolvePort(8080, t)).toBe(8080);
    expect(resolvePort(80, [target(80, 8081), target(80, 8082)])).toBe(8081);
  });
  it('resolvePorts skips services labelled experimental.istio.io/disable-gateway-port-translation', () => {
    expect(resolvePort(80, [target(80, 8080, { 'experimental.istio.io/disable-gateway-port-translation': 'true' })])).toBe(80);
  });
  it('GetSNIHostsForServer: ns/ stripped, deduplicated, sorted; none without TLS', () => {
    expect(
      sniHostsForServer({ port: { number: 443, name: 'h', protocol: 'HTTPS' }, hosts: ['ns/b.com', 'a.com', 'b.com'], tls: {} }),
    ).toEqual(['a.com', 'b.com']);
    expect(sniHostsForServer({ port: { number: 80, name: 'h', protocol: 'HTTP' }, hosts: ['a.com'] })).toEqual([]);
  });
});
