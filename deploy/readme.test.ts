// The bootstrap snippets in deploy/README.md must be accepted by the programs they are for:
// the Envoy one parses as envoy.config.bootstrap.v3.Bootstrap (unknown fields rejected, nested Any
// resolved through the registry), the gRPC one passes grpc-js-xds's own bootstrap validator.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromJson, type JsonValue } from '@bufbuild/protobuf';
import { validateBootstrapConfig } from '@grpc/grpc-js-xds/build/src/xds-bootstrap';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BootstrapSchema } from '../server/gen/envoy/config/bootstrap/v3/bootstrap_pb';
import { envoyRegistry } from '../server/gen/registry';

const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'README.md'), 'utf8');
const blocks = (lang: string) => [...README.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');

describe('deploy/README.md snippets', () => {
  it('the Envoy bootstrap is a valid envoy.config.bootstrap.v3.Bootstrap using ADS on meshscope:15010', () => {
    const yamlBlocks = blocks('yaml');
    expect(yamlBlocks).toHaveLength(1);
    const json = parse(yamlBlocks[0] ?? '') as JsonValue;
    const b = fromJson(BootstrapSchema, json, { registry: envoyRegistry });
    expect(b.dynamicResources?.adsConfig?.grpcServices[0]?.targetSpecifier.case).toBe('envoyGrpc');
    const xds = b.staticResources?.clusters.find((c) => c.name === 'meshscope-xds');
    const addr = xds?.loadAssignment?.endpoints[0]?.lbEndpoints[0]?.hostIdentifier;
    expect(addr?.case).toBe('endpoint');
    const sock = addr?.case === 'endpoint' ? addr.value.address?.address : undefined;
    expect(sock?.case === 'socketAddress' ? sock.value.portSpecifier.value : undefined).toBe(15010);
    expect(b.node?.id).toMatch(/^sidecar~[\d.]+~[^~]+\.[^~]+~[^~]+\.svc\.cluster\.local$/);
    // An unknown field is rejected, so the check above can fail.
    expect(() => fromJson(BootstrapSchema, { ...(json as object), dynamic_resource: {} }, { registry: envoyRegistry })).toThrow();
  });

  it('the gRPC xDS bootstrap passes grpc-js-xds validateBootstrapConfig', () => {
    const jsonBlocks = blocks('json');
    expect(jsonBlocks).toHaveLength(1);
    const obj = JSON.parse(jsonBlocks[0] ?? '') as { node: Record<string, unknown> };
    const info = validateBootstrapConfig(obj);
    expect(info.xdsServers[0]?.server_uri).toBe('meshscope.meshscope.svc.cluster.local:15010');
    // node.locality is required by this client (grpc-xds-client-notes): without it, it throws.
    const { locality: _locality, ...node } = obj.node;
    expect(() => validateBootstrapConfig({ ...obj, node })).toThrow(/locality/);
  });
});
