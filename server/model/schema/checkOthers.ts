// Semantic checks Istio's validation webhook applies to DestinationRule, Gateway, ServiceEntry and Sidecar
// (pilot/pkg/config/validation/validation.go: ValidateDestinationRule, validateTrafficPolicy,
// ValidateGateway/validateServer/validateServerPort/validateTLSOptions, ValidateServiceEntry, ValidateSidecar).
import { pushAll } from './common';
import type { DestinationRuleSpec, GatewaySpec, ServiceEntrySpec, SidecarSpec, TrafficPolicy } from '../istio';
import type { PathIssue } from './common';
import {
  exportToIssues,
  hostOrIpError,
  isCIDR,
  isDns1123Label,
  isIP,
  isKnownProtocol,
  labelsIssues,
  portError,
  wildcardDomainError,
} from './rules';

export function checkDestinationRule(spec: DestinationRuleSpec): PathIssue[] {
  const out: PathIssue[] = [];
  const err = spec.host === '' ? 'destination rule host is required' : hostOrIpError(spec.host);
  if (err) out.push({ path: 'spec.host', message: err });
  pushAll(out, trafficPolicyIssues(spec.trafficPolicy, 'spec.trafficPolicy', true));
  const names = new Set<string>();
  (spec.subsets ?? []).forEach((s, i) => {
    const p = `spec.subsets[${i}]`;
    if (!s.name) out.push({ path: `${p}.name`, message: 'subset name is invalid: ' });
    else if (!isDns1123Label(s.name)) out.push({ path: `${p}.name`, message: `subset name is invalid: ${s.name}` });
    if (names.has(s.name)) out.push({ path: `${p}.name`, message: `duplicate subset names: ${s.name}` });
    names.add(s.name);
    pushAll(out, labelsIssues(s.labels, `${p}.labels`));
    pushAll(out, trafficPolicyIssues(s.trafficPolicy, `${p}.trafficPolicy`, true));
  });
  pushAll(out, labelsIssues(spec.workloadSelector?.matchLabels, 'spec.workloadSelector.matchLabels'));
  pushAll(out, exportToIssues(spec.exportTo, 'spec.exportTo'));
  return out;
}

function trafficPolicyIssues(
  tp: TrafficPolicy | Omit<TrafficPolicy, 'portLevelSettings'> | undefined,
  p: string,
  top: boolean,
): PathIssue[] {
  if (!tp) return [];
  const out: PathIssue[] = [];
  const keys = Object.keys(tp).filter((k) => k !== 'port');
  if (keys.length === 0) out.push({ path: p, message: 'traffic policy must have at least one field' });
  const ch = tp.loadBalancer?.consistentHash;
  if (tp.loadBalancer?.simple !== undefined && ch !== undefined)
    out.push({ path: `${p}.loadBalancer`, message: 'only one of simple, consistentHash may be set (oneof)' });
  if (ch) {
    const hashKeys = (['httpHeaderName', 'httpCookie', 'useSourceIp', 'httpQueryParameterName'] as const).filter(
      (k) => ch[k] !== undefined,
    );
    if (hashKeys.length !== 1)
      out.push({ path: `${p}.loadBalancer.consistentHash`, message: 'consistent hash must set exactly one hash key' });
    if (ch.ringHash && ch.maglev)
      out.push({ path: `${p}.loadBalancer.consistentHash`, message: 'only one of ringHash, maglev may be set (oneof)' });
  }
  const od = tp.outlierDetection;
  if (od) {
    for (const k of ['maxEjectionPercent', 'minHealthPercent'] as const) {
      const v = od[k];
      if (v !== undefined && (v < 0 || v > 100))
        out.push({ path: `${p}.outlierDetection.${k}`, message: `${k} must be in range [0, 100]` });
    }
  }
  const cp = tp.connectionPool;
  for (const [group, values] of [
    ['tcp', cp?.tcp],
    ['http', cp?.http],
  ] as const) {
    for (const [k, v] of Object.entries(values ?? {})) {
      if (typeof v === 'number' && v < 0)
        out.push({ path: `${p}.connectionPool.${group}.${k}`, message: `${k} must be greater than or equal to 0` });
    }
  }
  const tls = tp.tls;
  if (tls && (tls.mode === 'SIMPLE' || tls.mode === 'MUTUAL') && tls.credentialName) {
    if (tls.clientCertificate || tls.privateKey || tls.caCertificates)
      out.push({ path: `${p}.tls`, message: 'cannot specify client certificates or CA certificate if credentialName is set' });
  } else if (tls?.mode === 'MUTUAL') {
    if (!tls.clientCertificate) out.push({ path: `${p}.tls.clientCertificate`, message: 'client certificate required for mutual tls' });
    if (!tls.privateKey) out.push({ path: `${p}.tls.privateKey`, message: 'private key required for mutual tls' });
  }
  if (top && 'portLevelSettings' in tp) {
    const seen = new Set<number>();
    (tp.portLevelSettings ?? []).forEach((pl, i) => {
      const pp = `${p}.portLevelSettings[${i}]`;
      const n = pl.port?.number;
      if (n === undefined) out.push({ path: `${pp}.port`, message: 'portTrafficPolicy must have valid port' });
      else {
        if (seen.has(n)) out.push({ path: `${pp}.port.number`, message: `duplicate port ${n} in portLevelSettings` });
        seen.add(n);
      }
      pushAll(out, trafficPolicyIssues(pl, pp, false));
    });
  }
  return out;
}

export function checkGateway(spec: GatewaySpec): PathIssue[] {
  const out: PathIssue[] = [];
  if (spec.servers.length === 0) out.push({ path: 'spec.servers', message: 'gateway must have at least one server' });
  const portNames = new Map<string, number>();
  spec.servers.forEach((s, i) => {
    const p = `spec.servers[${i}]`;
    if (s.hosts.length === 0) out.push({ path: `${p}.hosts`, message: 'server config must contain at least one host' });
    s.hosts.forEach((h, j) => {
      const err = namespacedHostError(h, false);
      if (err) out.push({ path: `${p}.hosts[${j}]`, message: err });
    });
    const perr = portError(s.port.number);
    if (perr) out.push({ path: `${p}.port.number`, message: perr });
    if (!isKnownProtocol(s.port.protocol))
      out.push({
        path: `${p}.port.protocol`,
        message: `invalid protocol "${s.port.protocol}", supported protocols are HTTP, HTTP2, GRPC, GRPC-WEB, MONGO, REDIS, MYSQL, TCP`,
      });
    if (!s.port.name) out.push({ path: `${p}.port.name`, message: 'port name must be set' });
    else {
      if (portNames.has(s.port.name))
        out.push({ path: `${p}.port.name`, message: `port names in servers must be unique: duplicate name ${s.port.name}` });
      portNames.set(s.port.name, i);
    }
    const proto = s.port.protocol.toUpperCase();
    const tlsProto = proto === 'HTTPS' || proto === 'TLS';
    if (tlsProto && (!s.tls || (s.tls.httpsRedirect && s.tls.mode === undefined)))
      out.push({ path: `${p}.tls`, message: 'server must have TLS settings for HTTPS/TLS protocols' });
    else if (!tlsProto && s.tls && !s.tls.httpsRedirect && proto !== 'UNSUPPORTED')
      out.push({ path: `${p}.tls`, message: 'server cannot have TLS settings for plain text HTTP ports' });
    const tls = s.tls;
    if (
      tls &&
      (tls.mode === 'SIMPLE' || tls.mode === 'MUTUAL' || tls.mode === 'OPTIONAL_MUTUAL') &&
      !tls.credentialName &&
      !tls.credentialNames?.length &&
      !(tls as { tlsCertificates?: unknown[] }).tlsCertificates?.length
    ) {
      if (!tls.serverCertificate)
        out.push({ path: `${p}.tls.serverCertificate`, message: `${tls.mode} TLS requires a server certificate` });
      if (!tls.privateKey) out.push({ path: `${p}.tls.privateKey`, message: `${tls.mode} TLS requires a private key` });
      if (tls.mode !== 'SIMPLE' && !tls.caCertificates)
        out.push({ path: `${p}.tls.caCertificates`, message: 'MUTUAL TLS requires a client CA bundle' });
    }
    if (tls?.credentialName && tls.credentialNames?.length)
      out.push({ path: `${p}.tls`, message: 'only one of credentialName or credentialNames can be set' });
  });
  pushAll(out, labelsIssues(spec.selector, 'spec.selector'));
  return out;
}

/** `ns/dnsName` (ns: `.`, `*`, `~` (Sidecar only) or a label) or a bare DNS name (any namespace implied). */
function namespacedHostError(h: string, allowTilde: boolean): string | undefined {
  const parts = h.split('/');
  if (parts.length > 2) return `host must be of form namespace/dnsName, got ${h}`;
  if (parts.length === 2) {
    const ns = parts[0]!;
    if (ns !== '.' && ns !== '*' && !(allowTilde && ns === '~') && !isDns1123Label(ns)) return `invalid namespace value ${ns} in host ${h}`;
  }
  const dns = parts[parts.length - 1]!;
  return dns === '*' ? undefined : wildcardDomainError(dns);
}

export function checkServiceEntry(spec: ServiceEntrySpec): PathIssue[] {
  const out: PathIssue[] = [];
  if (spec.hosts.length === 0) out.push({ path: 'spec.hosts', message: 'service entry must have at least one host' });
  spec.hosts.forEach((h, i) => {
    if (h === '*') out.push({ path: `spec.hosts[${i}]`, message: 'invalid host *' });
    else {
      const err = wildcardDomainError(h);
      if (err) out.push({ path: `spec.hosts[${i}]`, message: err });
    }
  });
  (spec.addresses ?? []).forEach((a, i) => {
    if (!isIP(a) && !isCIDR(a)) out.push({ path: `spec.addresses[${i}]`, message: `invalid address ${a}` });
  });
  const names = new Set<string>();
  const numbers = new Set<number>();
  (spec.ports ?? []).forEach((port, i) => {
    const p = `spec.ports[${i}]`;
    const perr = portError(port.number);
    if (perr) out.push({ path: `${p}.number`, message: perr });
    if (port.targetPort !== undefined && portError(port.targetPort))
      out.push({ path: `${p}.targetPort`, message: portError(port.targetPort)! });
    if (port.protocol && !isKnownProtocol(port.protocol))
      out.push({ path: `${p}.protocol`, message: `unrecognized protocol name "${port.protocol}"` });
    if (!port.name) out.push({ path: `${p}.name`, message: 'port name must be set' });
    if (names.has(port.name)) out.push({ path: `${p}.name`, message: `duplicate port names: ${port.name}` });
    if (numbers.has(port.number)) out.push({ path: `${p}.number`, message: `duplicate port number: ${port.number}` });
    names.add(port.name);
    numbers.add(port.number);
  });
  if (spec.workloadSelector && (spec.endpoints ?? []).length > 0)
    out.push({ path: 'spec', message: 'only one of WorkloadSelector or Endpoints is allowed in Service Entry' });
  const resolution = spec.resolution ?? 'NONE';
  (spec.endpoints ?? []).forEach((ep, i) => {
    const p = `spec.endpoints[${i}]`;
    const addr = ep.address ?? '';
    if (resolution === 'NONE' || resolution === 'STATIC') {
      if (addr && !isIP(addr) && !addr.startsWith('unix://'))
        out.push({ path: `${p}.address`, message: `endpoint address "${addr}" is not a valid IP address` });
    } else if (addr && !isIP(addr) && wildcardDomainError(addr)) {
      out.push({ path: `${p}.address`, message: `endpoint address "${addr}" is not a valid FQDN or an IP address` });
    }
    for (const [name, n] of Object.entries(ep.ports ?? {})) {
      if (!names.has(name)) out.push({ path: `${p}.ports.${name}`, message: `endpoint port ${name} is not defined by the service entry` });
      if (portError(n)) out.push({ path: `${p}.ports.${name}`, message: portError(n)! });
    }
    pushAll(out, labelsIssues(ep.labels, `${p}.labels`));
  });
  if ((resolution === 'DNS' || resolution === 'DNS_ROUND_ROBIN') && !spec.endpoints?.length) {
    spec.hosts.forEach((h, i) => {
      if (h.startsWith('*'))
        out.push({ path: `spec.hosts[${i}]`, message: `wildcard host ${h} is not allowed for resolution ${resolution} without endpoints` });
    });
  }
  if (resolution === 'DNS_ROUND_ROBIN' && (spec.endpoints ?? []).length > 1)
    out.push({ path: 'spec.endpoints', message: 'there must only be 0 or 1 endpoint for resolution DNS_ROUND_ROBIN' });
  pushAll(out, labelsIssues(spec.workloadSelector?.labels, 'spec.workloadSelector.labels'));
  pushAll(out, exportToIssues(spec.exportTo, 'spec.exportTo'));
  return out;
}

export function checkSidecar(spec: SidecarSpec): PathIssue[] {
  const out: PathIssue[] = [];
  const egress = spec.egress ?? [];
  if (egress.length === 0 && !spec.ingress?.length && !spec.outboundTrafficPolicy && !spec.inboundConnectionPool)
    out.push({ path: 'spec', message: 'sidecar: empty configuration provided' });
  egress.forEach((e, i) => {
    const p = `spec.egress[${i}]`;
    if (!e.port && i !== egress.length - 1)
      out.push({ path: p, message: 'sidecar: the egress listener with empty port should be the last listener in the list' });
    if (e.hosts.length === 0) out.push({ path: `${p}.hosts`, message: 'sidecar: egress listener must contain at least one host' });
    e.hosts.forEach((h, j) => {
      if (!h.includes('/')) {
        out.push({ path: `${p}.hosts[${j}]`, message: `sidecar: host must be of form namespace/dnsName` });
        return;
      }
      const err = namespacedHostError(h, true);
      if (err) out.push({ path: `${p}.hosts[${j}]`, message: err });
    });
    if (e.port && portError(e.port.number)) out.push({ path: `${p}.port.number`, message: portError(e.port.number)! });
  });
  const ingressPorts = new Set<number>();
  (spec.ingress ?? []).forEach((ing, i) => {
    const p = `spec.ingress[${i}]`;
    if (portError(ing.port.number)) out.push({ path: `${p}.port.number`, message: portError(ing.port.number)! });
    if (ingressPorts.has(ing.port.number))
      out.push({ path: `${p}.port.number`, message: 'sidecar: ports on IP bound listeners must be unique' });
    ingressPorts.add(ing.port.number);
    pushAll(out, ingressEndpointIssues(ing.defaultEndpoint, ing.bind, p));
  });
  const otp = spec.outboundTrafficPolicy;
  if (otp?.egressProxy && otp.mode !== 'ALLOW_ANY')
    out.push({
      path: 'spec.outboundTrafficPolicy.egressProxy',
      message: 'sidecar: egress_proxy must be set only with ALLOW_ANY outbound_traffic_policy mode',
    });
  pushAll(out, labelsIssues(spec.workloadSelector?.labels, 'spec.workloadSelector.labels'));
  return out;
}

const INGRESS_ENDPOINT_HOSTS = new Set(['', '127.0.0.1', '0.0.0.0', '::1', '::']);

/** ValidateSidecar's ingress checks: bind must be an IP; defaultEndpoint `HOST:PORT` with a local or wildcard host, or unix://. */
function ingressEndpointIssues(defaultEndpoint: string | undefined, bind: string | undefined, p: string): PathIssue[] {
  const out: PathIssue[] = [];
  if (bind && !isIP(bind)) out.push({ path: `${p}.bind`, message: `${bind} is not a valid IP address` });
  const de = defaultEndpoint ?? '';
  if (de === '') return out;
  if (de.startsWith('unix://')) {
    if (de.length === 'unix://'.length) out.push({ path: `${p}.defaultEndpoint`, message: 'unix address must not be empty' });
    return out;
  }
  const colon = de.lastIndexOf(':');
  const host = colon < 0 ? de : de.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const port = colon < 0 ? '' : de.slice(colon + 1);
  if (colon < 0) out.push({ path: `${p}.defaultEndpoint`, message: `address ${de}: missing port in address` });
  if (!INGRESS_ENDPOINT_HOSTS.has(host))
    out.push({
      path: `${p}.defaultEndpoint`,
      message: 'sidecar: defaultEndpoint must be of form 127.0.0.1:<port>,0.0.0.0:<port>,[::1]:port,[::]:port,unix://filepath or unset',
    });
  if (colon >= 0 && !/^\d+$/.test(port))
    out.push({ path: `${p}.defaultEndpoint`, message: `sidecar: defaultEndpoint port (${port}) is not a number` });
  else if (colon >= 0 && portError(Number(port))) out.push({ path: `${p}.defaultEndpoint`, message: portError(Number(port))! });
  return out;
}
