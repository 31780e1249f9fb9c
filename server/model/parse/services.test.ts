// ServiceEntry → services and endpoints (serviceentry/conversion.go) and protocol parsing rules.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPaths } from '../../sources/file/loadPaths';
import { buildSnapshot } from '../snapshot';
import { convertKubeProtocol, parseProtocol } from './protocol';

const TD = join(import.meta.dirname, '..', 'testdata');
const snap = (() => {
  const r = loadPaths([join(TD, 'serviceentries.yaml')]);
  return buildSnapshot(r.inputs, { version: 1, extraErrors: r.errors });
})();
const svc = (host: string) => snap.servicesByHost.get(host)?.[0];
const eps = (host: string, port: number) => snap.endpoints.get(`egress/${host}`)?.get(port) ?? [];

describe('ServiceEntry conversion (convertServices)', () => {
  it('loads without errors; one service per host', () => {
    expect(snap.errors).toEqual([]);
    expect(svc('api.example.com')?.name).toBe('external-dns');
    expect(svc('cdn.example.com')?.name).toBe('external-dns');
  });
  it('resolution DNS → DNS; protocol from `protocol` only (empty → sniffed), location defaults to MESH_EXTERNAL', () => {
    expect(svc('api.example.com')).toMatchObject({ resolution: 'DNS', meshExternal: true, registry: 'External', address: '0.0.0.0' });
    expect(svc('api.example.com')?.ports.map((p) => [p.name, p.protocol])).toEqual([
      ['https', 'TLS'],
      ['web', 'Unsupported'],
    ]);
  });
  it('DNS without endpoints: one endpoint per port with the host as address, port = targetPort > number', () => {
    expect(eps('api.example.com', 443).map((e) => `${e.address}:${e.port}`)).toEqual(['api.example.com:443']);
    expect(eps('api.example.com', 80).map((e) => `${e.address}:${e.port}`)).toEqual(['api.example.com:8080']);
  });
  it('STATIC: CIDR kept, /32 → plain IP; MESH_INTERNAL; exportTo from spec; endpoint port = ports[name] > targetPort', () => {
    expect(svc('vm.internal')).toMatchObject({
      resolution: 'ClientSideLB',
      meshExternal: false,
      address: '192.168.10.0/24',
      addresses: ['192.168.10.0/24', '10.0.0.9'],
      exportTo: ['.'],
    });
    expect(svc('vm.internal')?.ports[0]?.protocol).toBe('HTTP');
    const list = eps('vm.internal', 9080);
    expect(list.map((e) => [e.address, e.port, e.weight])).toEqual([
      ['192.168.10.5', 7070, 3],
      ['192.168.10.6', 9999, 1],
    ]);
    expect(list[0]?.locality).toEqual({ region: 'us-east', zone: 'us-east-1a', subzone: 'rack1' });
    expect(list[0]?.labels).toEqual({ version: 'v1' });
  });
  it('workloadSelector: endpoints are the selected pods of the namespace', () => {
    expect(eps('selected.internal', 8000).map((e) => [e.address, e.port, e.podName])).toEqual([['10.5.5.5', 8000, 'vmish-0']]);
  });
});

describe('protocols (pkg/config/protocol:Parse, pkg/config/kube/conversion.go:ConvertProtocol)', () => {
  it.each([
    [80, 'http', undefined, undefined, 'HTTP'],
    [80, 'http-web', undefined, undefined, 'HTTP'],
    [80, 'HTTP2-x', undefined, undefined, 'HTTP2'],
    [80, 'grpc-web-x', undefined, undefined, 'GRPC-Web'],
    [80, 'grpc', undefined, undefined, 'GRPC'],
    [80, 'web', undefined, 'http', 'HTTP'],
    [80, 'http', undefined, 'kubernetes.io/wss', 'HTTPS'],
    [80, 'http', undefined, 'kubernetes.io/ws', 'HTTP'],
    [80, 'tcp', 'UDP', undefined, 'UDP'],
    [80, 'mongo', undefined, undefined, 'Mongo'],
    [80, 'foo', undefined, undefined, 'Unsupported'],
    [25, 'foo', undefined, undefined, 'TCP'],
    [53, undefined, undefined, undefined, 'TCP'],
    [27017, '', undefined, undefined, 'TCP'],
    [3306, 'http', undefined, undefined, 'HTTP'],
  ] as const)('port %s name %s proto %s appProtocol %s → %s', (port, name, proto, app, want) => {
    expect(convertKubeProtocol(port, name, proto, app)).toBe(want);
  });
  it('Parse is case-insensitive and maps unknown names to Unsupported', () => {
    expect(parseProtocol('https')).toBe('HTTPS');
    expect(parseProtocol('MySQL')).toBe('MySQL');
    expect(parseProtocol('http_proxy')).toBe('HTTP_PROXY');
    expect(parseProtocol('quic')).toBe('Unsupported');
    expect(parseProtocol(undefined)).toBe('Unsupported');
  });
});
