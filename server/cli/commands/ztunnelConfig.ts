// `meshscope ztunnel-config --config PATH… [--ambient] [all|workloads|services|policies] [-o json|table]`:
// what istiod sends ztunnel (issue #20 §3). JSON: pipeline/ztunnelConfig.ts. Tables: istioctl's `ztunnel-config`
// summaries (istioctl/pkg/writer/ztunnel/configdump: workload.go, services.go, policies.go), same columns and order.
import type { JsonValue } from '@bufbuild/protobuf';
import { byteCompare } from '../../lib/compare';
import { ZTUNNEL_SECTIONS, type ZtunnelConfig, ztunnelConfig, ztunnelSection } from '../../pipeline/ztunnelConfig';
import { oneOf, parseArgs, UsageError } from '../args';
import { formatError, formatTable } from '../format';
import { CONFIG_FLAGS, loadFromArgs, writeJson, type Io } from './common';

type Obj = { [k: string]: JsonValue };
const s = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** A GatewayAddress (text form) → the name istioctl shows: the Service it names, else its destination. */
function waypointName(g: JsonValue | undefined, services: readonly Obj[]): string {
  if (g === undefined || g === null) return 'None';
  const o = g as Obj;
  if (o['hostname']) {
    const h = o['hostname'] as Obj;
    const svc = services.find((x) => x['namespace'] === h['namespace'] && x['hostname'] === h['hostname']);
    return svc ? s(svc['name']) : `${s(h['namespace'])}/${s(h['hostname'])}`;
  }
  const addr = s(o['address']);
  const svc = services.find((x) => Array.isArray(x['addresses']) && x['addresses'].includes(addr));
  return svc ? s(svc['name']) : addr;
}

export function workloadsTable(c: ZtunnelConfig): string {
  const rows = [...c.workloads]
    .sort(
      (a, b) =>
        byteCompare(`${s(a['namespace'])}.${s(a['name'])}`, `${s(b['namespace'])}.${s(b['name'])}`) ||
        byteCompare(s(a['node']), s(b['node'])),
    )
    .map((w) => [
      s(w['namespace']),
      s(w['name']),
      Array.isArray(w['addresses']) && w['addresses'].length ? w['addresses'].map(s).join(',') : s(w['hostname']),
      s(w['node']),
      waypointName(w['waypoint'], c.services),
      // ztunnel prints the tunnel protocol; NONE (the proto default, omitted) is plain TCP.
      s(w['tunnelProtocol']) || 'TCP',
    ]);
  return formatTable(['NAMESPACE', 'POD NAME', 'ADDRESS', 'NODE', 'WAYPOINT', 'PROTOCOL'], rows);
}

export function servicesTable(c: ZtunnelConfig): string {
  const rows = [...c.services]
    .sort(
      (a, b) =>
        byteCompare(s(a['namespace']), s(b['namespace'])) ||
        byteCompare(s(a['name']), s(b['name'])) ||
        byteCompare(s(a['hostname']), s(b['hostname'])),
    )
    .map((svc) => {
      const key = `${s(svc['namespace'])}/${s(svc['hostname'])}`;
      const eps = c.workloads.filter((w) => w['services'] && key in (w['services'] as Obj));
      const healthy = eps.filter((w) => w['status'] !== 'UNHEALTHY').length;
      const vips = Array.isArray(svc['addresses']) ? svc['addresses'].map((a) => s(a).slice(s(a).indexOf('/') + 1)) : [];
      return [s(svc['namespace']), s(svc['name']), vips.join(','), waypointName(svc['waypoint'], c.services), `${healthy}/${eps.length}`];
    });
  return formatTable(['NAMESPACE', 'SERVICE NAME', 'SERVICE VIP', 'WAYPOINT', 'ENDPOINTS'], rows);
}

export function policiesTable(c: ZtunnelConfig): string {
  const rows = [...c.policies]
    .sort((a, b) => byteCompare(s(a['namespace']), s(b['namespace'])) || byteCompare(s(a['name']), s(b['name'])))
    // proto3 JSON leaves the default enum values out: ALLOW and GLOBAL.
    .map((p) => [s(p['namespace']), s(p['name']), s(p['action']) || 'ALLOW', s(p['scope']) || 'GLOBAL']);
  return formatTable(['NAMESPACE', 'POLICY NAME', 'ACTION', 'SCOPE'], rows);
}

export async function ztunnelConfigCommand(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, [...CONFIG_FLAGS, { name: 'output', short: 'o', kind: 'string' }]);
  const output = oneOf(args, 'output', ['json', 'table'] as const, 'table');
  if (args.positionals.length > 1)
    throw new UsageError(`takes at most one of ${ZTUNNEL_SECTIONS.join('|')}, got ${args.positionals.join(' ')}`);
  const section = args.positionals[0] ?? 'all';
  if (!(ZTUNNEL_SECTIONS as readonly string[]).includes(section))
    throw new UsageError(`unknown section "${section}": one of ${ZTUNNEL_SECTIONS.join('|')}`);
  const loaded = await loadFromArgs(args, io);
  if (!loaded) return 1;
  if (!loaded.snapshot.ambient)
    io.stderr.write('meshscope ztunnel-config: istiod runs without the ambient profile (no --ambient): ztunnel is sent nothing\n');
  const { config, errors } = ztunnelConfig(loaded.snapshot);
  const sec = section as (typeof ZTUNNEL_SECTIONS)[number];
  for (const e of errors) io.stderr.write(`${formatError(e)}\n`);
  if (output === 'json') {
    writeJson(io, ztunnelSection(config, sec));
    return 0;
  }
  const parts: string[] = [];
  if (sec === 'all' || sec === 'workloads') parts.push(workloadsTable(config));
  if (sec === 'all' || sec === 'services') parts.push(servicesTable(config));
  if (sec === 'all' || sec === 'policies') parts.push(policiesTable(config));
  io.stdout.write(parts.join('\n'));
  return 0;
}
