// Small value validators mirroring istio pkg/config/validation/agent (ValidateWildcardDomain,
// ValidatePort, ValidatePercent, exportTo and gateway-name rules). Each returns a message or undefined.
import { istioRegexError } from '../../lib/re2';
import { pushAll } from './common';
import type { Destination, StringMatch } from '../istio';
import type { PathIssue } from './common';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export const isDns1123Label = (s: string): boolean => s.length <= 63 && DNS1123_LABEL.test(s);
export const isIPv4 = (s: string): boolean => IPV4.test(s);
export const isIPv6 = (s: string): boolean => s.includes(':') && /^[0-9a-f:.]+$/i.test(s) && s.split('::').length <= 2;
export const isIP = (s: string): boolean => isIPv4(s) || isIPv6(s);

export function isCIDR(s: string): boolean {
  const [ip, bits, extra] = s.split('/');
  if (ip === undefined || bits === undefined || extra !== undefined || !/^\d+$/.test(bits)) return false;
  const n = Number(bits);
  return (isIPv4(ip) && n <= 32) || (isIPv6(ip) && n <= 128);
}

/** pkg/config/validation/agent: ValidateWildcardDomain (a leading `*` label is allowed). */
export function wildcardDomainError(host: string): string | undefined {
  if (host.length === 0) return 'empty domain name not allowed';
  if (host.length > 255) return `domain name "${host}" too long (max 255)`;
  const labels = host.split('.');
  const rest = labels[0] === '*' || labels[0]?.startsWith('*') ? labels.slice(1) : labels;
  if (labels[0] !== '*' && labels[0]?.startsWith('*')) {
    // `*foo.com` is accepted by Istio as a prefix wildcard; the remainder must still be a domain.
    const first = labels[0].slice(1);
    if (first && !isDns1123Label(first)) return `domain name "${host}" invalid (label "${labels[0]}" invalid)`;
  }
  for (const label of rest) {
    if (!isDns1123Label(label)) return `domain name "${host}" invalid (label "${label}" invalid)`;
  }
  return undefined;
}

export function hostOrIpError(host: string): string | undefined {
  return isIP(host) ? undefined : wildcardDomainError(host);
}

export function portError(port: number): string | undefined {
  return port < 1 || port > 65535 ? `port number ${port} must be in the range 1..65535` : undefined;
}

export function percentError(value: number): string | undefined {
  return value < 0 || value > 100 ? `percentage ${value} is not in range 0..100` : undefined;
}

/** model.ValidateExportTo (validation.go:validateExportTo). */
export function exportToIssues(exportTo: readonly string[] | undefined, path: string): PathIssue[] {
  const out: PathIssue[] = [];
  if (!exportTo) return out;
  const seen = new Set<string>();
  exportTo.forEach((e, i) => {
    if (seen.has(e)) out.push({ path: `${path}[${i}]`, message: `duplicate entries in exportTo: ${e}` });
    seen.add(e);
    if (e !== '.' && e !== '*' && e !== '~' && !isDns1123Label(e))
      out.push({ path: `${path}[${i}]`, message: `only .,*, or a valid DNS 1123 label is allowed as exportTo entry, got "${e}"` });
  });
  if (seen.has('~') && seen.size > 1) out.push({ path, message: 'exportTo "~" (export to no one) cannot be combined with other entries' });
  if (seen.has('*') && seen.size > 1 && !seen.has('~'))
    out.push({ path, message: 'exportTo "*" (export to everyone) cannot be combined with other entries' });
  return out;
}

/** validation.go:validateGatewayNames: `mesh`, `name`, `ns/name` (DNS-1123 labels) or a legacy FQDN. */
export function gatewayNameIssues(gateways: readonly string[] | undefined, path: string): PathIssue[] {
  const out: PathIssue[] = [];
  (gateways ?? []).forEach((gw, i) => {
    const p = `${path}[${i}]`;
    const parts = gw.split('/');
    if (parts.length === 1) {
      const err = wildcardDomainError(gw);
      if (err || gw.includes('*')) out.push({ path: p, message: `invalid gateway name "${gw}"` });
      return;
    }
    const [ns, name] = parts;
    if (parts.length !== 2 || !ns || !name) {
      out.push({ path: p, message: 'config namespace and gateway name cannot be empty' });
      return;
    }
    if (ns !== '.' && !isDns1123Label(ns)) out.push({ path: p, message: `invalid value for namespace: "${ns}"` });
    if (!isDns1123Label(name)) out.push({ path: p, message: `invalid value for gateway name: "${name}"` });
  });
  return out;
}

/** validation.go:validateDestination. */
export function destinationIssues(d: Destination | undefined, path: string): PathIssue[] {
  if (!d) return [];
  const out: PathIssue[] = [];
  if (d.host === '*') out.push({ path: `${path}.host`, message: `invalid destination host ${d.host}` });
  else {
    const err = d.host === '' ? 'destination host is required' : hostOrIpError(d.host);
    if (err) out.push({ path: `${path}.host`, message: err });
  }
  if (d.subset !== undefined && !isDns1123Label(d.subset))
    out.push({ path: `${path}.subset`, message: `subset name is invalid: ${d.subset}` });
  if (d.port?.number !== undefined) {
    const err = portError(d.port.number);
    if (err) out.push({ path: `${path}.port.number`, message: err });
  }
  return out;
}

/** StringMatch is a proto oneof: at most one of exact/prefix/regex; regex must compile. */
export function stringMatchIssues(m: StringMatch | undefined, path: string): PathIssue[] {
  if (!m) return [];
  const set = (['exact', 'prefix', 'regex'] as const).filter((k) => m[k] !== undefined);
  const out: PathIssue[] = [];
  if (set.length > 1) out.push({ path, message: `only one of ${set.join(', ')} may be set (oneof)` });
  // validation.go validateStringMatchRegexp: an empty regex is refused before it is compiled.
  if (m.regex === '') out.push({ path: `${path}.regex`, message: 'regex string match should not be empty' });
  else if (m.regex !== undefined) pushAll(out, regexIssues(m.regex, `${path}.regex`));
  return out;
}

/**
 * validation.go validateStringRegexp: at most 1024 characters, then Go's regexp.Compile (RE2 syntax: no
 * lookarounds, backreferences or possessive quantifiers), with istiod's error text.
 */
export function regexIssues(re: string, path: string): PathIssue[] {
  const err = istioRegexError(re);
  return err === undefined ? [] : [{ path, message: err }];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** validation.go:ValidateHTTPHeaderName. */
export function headerNameIssues(names: Iterable<string>, path: string): PathIssue[] {
  const out: PathIssue[] = [];
  for (const name of names) {
    if (name === '') out.push({ path, message: 'header name cannot be empty' });
    else if (!TOKEN.test(name.startsWith(':') ? name.slice(1) : name))
      out.push({ path: `${path}.${name}`, message: `header name ${name} is not a valid header name` });
  }
  return out;
}

export function labelsIssues(labels: Readonly<Record<string, string>> | undefined, path: string): PathIssue[] {
  const out: PathIssue[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    const name = k.includes('/') ? k.slice(k.indexOf('/') + 1) : k;
    if (!/^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$/.test(name) || name.length > 63)
      out.push({ path: `${path}.${k}`, message: `invalid label key "${k}"` });
    if (v !== '' && (!/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(v) || v.length > 63))
      out.push({ path: `${path}.${k}`, message: `invalid label value "${v}"` });
  }
  return out;
}

/** Istio's protocol names accepted in Gateway/ServiceEntry/Sidecar ports (pkg/config/protocol:Parse). */
export const ISTIO_PROTOCOLS = ['HTTP', 'HTTP2', 'HTTPS', 'GRPC', 'GRPC-WEB', 'HTTP_PROXY', 'TCP', 'TLS', 'MONGO', 'REDIS', 'MYSQL', 'UDP'];
export const isKnownProtocol = (p: string): boolean => ISTIO_PROTOCOLS.includes(p.toUpperCase());
