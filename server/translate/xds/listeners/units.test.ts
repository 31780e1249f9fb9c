// Small helpers against Istio's definitions (pkg/config/protocol, pkg/config/host, listener.go).
import { describe, expect, it } from 'vitest';
import { conflictsWith, isMatchAll, toFilterChainMatch } from './chainOpts';
import { normalizeDuration as protoDuration } from '../../../lib/duration';
import { hostsMatch as hostsOverlap } from '../../../model/host';
import { isHttpProtocol, isSniffedProtocol, isTcpProtocol, isTlsProtocol, listenerProtocol } from '../../../model/protocol';

describe('protocol classes (pkg/config/protocol/instance.go, networking.go ModelProtocolToListenerProtocol)', () => {
  it('classifies every Istio protocol', () => {
    expect(['HTTP', 'HTTP2', 'HTTP_PROXY', 'GRPC', 'GRPC-Web'].every((p) => isHttpProtocol(p as never))).toBe(true);
    expect(['TCP', 'HTTPS', 'TLS', 'Mongo', 'Redis', 'MySQL'].every((p) => isTcpProtocol(p as never))).toBe(true);
    expect(isTlsProtocol('HTTPS') && isTlsProtocol('TLS') && !isTlsProtocol('TCP')).toBe(true);
    expect(isHttpProtocol('HTTPS')).toBe(false);
    expect(isSniffedProtocol('Unsupported')).toBe(true);
    expect(listenerProtocol('UDP')).toBe('UNKNOWN');
    expect(listenerProtocol('Unsupported')).toBe('AUTO');
    expect(listenerProtocol('GRPC')).toBe('HTTP');
    expect(listenerProtocol('Redis')).toBe('TCP');
  });
});

describe('host.Name.Matches', () => {
  it('matches exact names and overlapping wildcards in either direction', () => {
    expect(hostsOverlap('a.b.com', 'a.b.com')).toBe(true);
    expect(hostsOverlap('*.b.com', 'a.b.com')).toBe(true);
    expect(hostsOverlap('a.b.com', '*.b.com')).toBe(true);
    expect(hostsOverlap('*.com', '*.b.com')).toBe(true);
    expect(hostsOverlap('*', 'anything.org')).toBe(true);
    expect(hostsOverlap('*.c.com', 'a.b.com')).toBe(false);
    expect(hostsOverlap('a.b.com', 'b.com')).toBe(false);
  });
});

describe('durations', () => {
  it('converts Go/Istio durations to proto3 JSON', () => {
    expect(protoDuration('1h')).toBe('3600s');
    expect(protoDuration('1.5s')).toBe('1.500s');
    expect(protoDuration('100ms')).toBe('0.100s');
    expect(protoDuration('2m30s')).toBe('150s');
    expect(protoDuration('10s')).toBe('10s');
    expect(protoDuration('ten')).toBeUndefined();
    expect(protoDuration('')).toBeUndefined();
  });
});

describe('filter chain options (listener.go isMatchAll, conflictsWith, toFilterChainMatch)', () => {
  it('a chain with only "*" SNI is match-all', () => {
    expect(isMatchAll({ sniHosts: ['*'] })).toBe(true);
    expect(isMatchAll({ transportProtocol: 'raw_buffer' })).toBe(false);
  });
  it('CIDRs conflict when equal once masked (1.2.3.4/8 ≡ 1.5.6.7/8), SNI order is ignored', () => {
    expect(conflictsWith({ destinationCidrs: ['1.2.3.4/8'] }, { destinationCidrs: ['1.5.6.7/8'] })).toBe(true);
    expect(conflictsWith({ destinationCidrs: ['1.2.3.4/16'] }, { destinationCidrs: ['1.5.6.7/16'] })).toBe(false);
    expect(conflictsWith({ sniHosts: ['a', 'b'] }, { sniHosts: ['b', 'a', '*'] })).toBe(true);
    expect(conflictsWith({ transportProtocol: 'tls' }, {})).toBe(false);
  });
  it('sorts server names and prefix ranges and drops 0.0.0.0', () => {
    expect(toFilterChainMatch({ sniHosts: ['b', 'a'], destinationCidrs: ['10.0.0.0/8', '0.0.0.0/0', '1.2.3.4'] })).toEqual({
      serverNames: ['a', 'b'],
      prefixRanges: [
        { addressPrefix: '1.2.3.4', prefixLen: 32 },
        { addressPrefix: '10.0.0.0', prefixLen: 8 },
      ],
    });
  });
});
