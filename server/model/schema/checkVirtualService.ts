// Semantic checks Istio's validation webhook applies to a VirtualService
// (pilot/pkg/config/validation/validation.go: ValidateVirtualService, validateHTTPRoute,
// validateHTTPRouteConflict, validateHTTPRouteDestinations, validateTLSMatch, validateHTTPRetry, …).
import { pushAll } from './common';
import type { HTTPRoute, RouteDestination, HTTPRouteDestination, VirtualServiceSpec } from '../istio';
import { parseDurationNanos } from '../../lib/duration';
import { hostSubsetOf, hostsMatch } from '../host';
import type { PathIssue } from './common';
import { DURATION_RE } from './common';
import {
  destinationIssues,
  exportToIssues,
  gatewayNameIssues,
  headerNameIssues,
  hostOrIpError,
  isCIDR,
  isIP,
  labelsIssues,
  percentError,
  portError,
  regexIssues,
  stringMatchIssues,
} from './rules';

const REDIRECT_CODES = [301, 302, 303, 307, 308];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'];
const RETRY_ON = new Set([
  '5xx',
  'gateway-error',
  'reset',
  'reset-before-request',
  'connect-failure',
  'envoy-ratelimited',
  'retriable-4xx',
  'refused-stream',
  'retriable-status-codes',
  'retriable-headers',
  'http3-post-connect-failure',
  'cancelled',
  'deadline-exceeded',
  'internal',
  'resource-exhausted',
  'unavailable',
]);

/** Nanoseconds of a duration the schema has already accepted (DURATION_RE), exact (server/lib/duration). */
const nanos = (d: string): bigint => parseDurationNanos(d) ?? 0n;

export function checkVirtualService(spec: VirtualServiceSpec): PathIssue[] {
  const out: PathIssue[] = [];
  const hosts = spec.hosts ?? [];
  const isDelegate = hosts.length === 0;
  const gateways = spec.gateways ?? [];
  const appliesToMesh = gateways.length === 0 || gateways.includes('mesh');
  pushAll(out, gatewayNameIssues(gateways, 'spec.gateways'));

  if (isDelegate) {
    if (gateways.length > 0) out.push({ path: 'spec.gateways', message: 'delegate virtual service must have no gateways specified' });
    if ((spec.tls ?? []).length > 0) out.push({ path: 'spec.tls', message: 'delegate virtual service must have no tls route specified' });
    if ((spec.tcp ?? []).length > 0) out.push({ path: 'spec.tcp', message: 'delegate virtual service must have no tcp route specified' });
  }
  let allValid = true;
  hosts.forEach((h, i) => {
    const err = hostOrIpError(h);
    if (err) {
      out.push({ path: `spec.hosts[${i}]`, message: err });
      allValid = false;
    } else if (appliesToMesh && h === '*') {
      out.push({ path: `spec.hosts[${i}]`, message: 'wildcard host * is not allowed for virtual services bound to the mesh gateway' });
      allValid = false;
    }
  });
  if (allValid) {
    for (let i = 0; i < hosts.length; i++)
      for (let j = i + 1; j < hosts.length; j++)
        if (hostsMatch(hosts[i]!, hosts[j]!))
          out.push({ path: `spec.hosts[${j}]`, message: `duplicate hosts in virtual service: ${hosts[i]} & ${hosts[j]}` });
  }
  if (!spec.http?.length && !spec.tcp?.length && !spec.tls?.length)
    out.push({ path: 'spec', message: 'http, tcp or tls must be provided in virtual service' });

  (spec.http ?? []).forEach((r, i) => pushAll(out, checkHttpRoute(r, `spec.http[${i}]`, isDelegate)));
  (spec.tls ?? []).forEach((r, i) => {
    const p = `spec.tls[${i}]`;
    if (r.match.length === 0) out.push({ path: `${p}.match`, message: 'TLS route must have at least one match condition' });
    r.match.forEach((m, j) => {
      const mp = `${p}.match[${j}]`;
      if (m.sniHosts.length === 0) out.push({ path: `${mp}.sniHosts`, message: 'TLS match must have at least one SNI host' });
      m.sniHosts.forEach((sni, k) => {
        const err = hostOrIpError(sni);
        if (err) out.push({ path: `${mp}.sniHosts[${k}]`, message: err });
        else if (!hosts.some((h) => hostSubsetOf(sni, h)))
          out.push({
            path: `${mp}.sniHosts[${k}]`,
            message: `SNI host is not a compatible subset of any of the virtual service hosts: ${sni}`,
          });
      });
      pushAll(out, l4MatchIssues(m, mp));
    });
    pushAll(out, routeDestinationIssues(r.route ?? [], `${p}.route`));
  });
  (spec.tcp ?? []).forEach((r, i) => {
    const p = `spec.tcp[${i}]`;
    (r.match ?? []).forEach((m, j) => pushAll(out, l4MatchIssues(m, `${p}.match[${j}]`)));
    pushAll(out, routeDestinationIssues(r.route ?? [], `${p}.route`));
  });
  pushAll(out, exportToIssues(spec.exportTo, 'spec.exportTo'));
  return out;
}

function l4MatchIssues(
  m: { destinationSubnets?: string[]; port?: number; sourceLabels?: Record<string, string>; gateways?: string[] },
  p: string,
): PathIssue[] {
  const out: PathIssue[] = [];
  (m.destinationSubnets ?? []).forEach((s, i) => {
    if (!isIP(s) && !isCIDR(s)) out.push({ path: `${p}.destinationSubnets[${i}]`, message: `invalid IP address or CIDR: ${s}` });
  });
  if (m.port !== undefined) {
    const err = portError(m.port);
    if (err) out.push({ path: `${p}.port`, message: err });
  }
  pushAll(out, labelsIssues(m.sourceLabels, `${p}.sourceLabels`), gatewayNameIssues(m.gateways, `${p}.gateways`));
  return out;
}

function weightIssues(routes: readonly (RouteDestination | HTTPRouteDestination)[], p: string): PathIssue[] {
  const out: PathIssue[] = [];
  let total = 0;
  routes.forEach((r, i) => {
    pushAll(out, destinationIssues(r.destination, `${p}[${i}].destination`));
    const w = r.weight ?? 0;
    const err = percentError(w);
    if (err) out.push({ path: `${p}[${i}].weight`, message: `weight ${w} ${err.replace(/^percentage \S+ /, '')}` });
    total += w;
  });
  if (routes.length > 1 && total !== 100) out.push({ path: p, message: `total destination weight ${total} != 100` });
  return out;
}

function routeDestinationIssues(routes: readonly RouteDestination[], p: string): PathIssue[] {
  return weightIssues(routes, p);
}

function checkHttpRoute(r: HTTPRoute, p: string, inDelegate: boolean): PathIssue[] {
  const out: PathIssue[] = [];
  const add = (path: string, message: string) => out.push({ path, message });
  const hasRoute = (r.route ?? []).length > 0;
  if (r.delegate) {
    if (inDelegate) add(`${p}.delegate`, 'delegate virtual service cannot have delegate');
    if (hasRoute) add(p, 'HTTP route cannot contain both route and delegate');
    if (r.redirect) add(p, 'HTTP route cannot contain both redirect and delegate');
    if (r.directResponse) add(p, 'HTTP route cannot contain both direct_response and delegate');
    if (!r.delegate.name) add(`${p}.delegate.name`, 'delegate name is required');
  }
  if (r.redirect) {
    if (hasRoute) add(p, 'HTTP route cannot contain both route and redirect');
    if (r.fault) add(p, 'HTTP route cannot contain both fault and redirect');
    if (r.rewrite) add(p, 'HTTP route rule cannot contain both rewrite and redirect');
    if (r.directResponse) add(p, 'HTTP route cannot contain both redirect and direct_response');
  } else if (r.directResponse) {
    if (hasRoute) add(p, 'HTTP route cannot contain both route and direct_response');
    if (r.fault) add(p, 'HTTP route cannot contain both fault and direct_response');
    if (r.rewrite) add(p, 'HTTP route rule cannot contain both rewrite and direct_response');
  } else if (!hasRoute && !r.delegate) {
    add(p, 'HTTP route, redirect, direct_response or delegate is required');
  }
  if (r.mirror && (r.mirrors ?? []).length > 0) add(p, 'HTTP route cannot contain both mirror and mirrors');

  (r.match ?? []).forEach((m, i) => {
    const mp = `${p}.match[${i}]`;
    for (const k of ['uri', 'scheme', 'method', 'authority'] as const) pushAll(out, stringMatchIssues(m[k], `${mp}.${k}`));
    for (const k of ['headers', 'queryParams', 'withoutHeaders'] as const)
      for (const [name, sm] of Object.entries(m[k] ?? {})) {
        // virtualservice.go validateHTTPRouteMatchRequest: a withoutHeaders `regex: "*"` is not RE2; it becomes present_match.
        if (k === 'withoutHeaders' && sm?.regex === '*') continue;
        pushAll(out, stringMatchIssues(sm, `${mp}.${k}.${name}`));
      }
    pushAll(out, headerNameIssues(Object.keys(m.headers ?? {}), `${mp}.headers`));
    pushAll(out, headerNameIssues(Object.keys(m.withoutHeaders ?? {}), `${mp}.withoutHeaders`));
    if (m.port !== undefined) {
      const err = portError(m.port);
      if (err) add(`${mp}.port`, err);
    }
    pushAll(out, labelsIssues(m.sourceLabels, `${mp}.sourceLabels`), gatewayNameIssues(m.gateways, `${mp}.gateways`));
  });

  for (const dir of ['request', 'response'] as const) {
    const ops = r.headers?.[dir];
    const hp = `${p}.headers.${dir}`;
    pushAll(out, headerNameIssues(Object.keys(ops?.set ?? {}), `${hp}.set`), headerNameIssues(Object.keys(ops?.add ?? {}), `${hp}.add`));
    pushAll(out, headerNameIssues(ops?.remove ?? [], `${hp}.remove`));
  }

  if (r.corsPolicy) {
    const cp = `${p}.corsPolicy`;
    (r.corsPolicy.allowMethods ?? []).forEach((m, i) => {
      if (!METHODS.includes(m)) add(`${cp}.allowMethods[${i}]`, `"${m}" is not a supported HTTP method`);
    });
    (r.corsPolicy.allowOrigins ?? []).forEach((o, i) => pushAll(out, stringMatchIssues(o, `${cp}.allowOrigins[${i}]`)));
    pushAll(out, headerNameIssues(r.corsPolicy.allowHeaders ?? [], `${cp}.allowHeaders`));
    pushAll(out, headerNameIssues(r.corsPolicy.exposeHeaders ?? [], `${cp}.exposeHeaders`));
    if (r.corsPolicy.maxAge && nanos(r.corsPolicy.maxAge) % 1_000_000_000n !== 0n)
      add(`${cp}.maxAge`, 'max_age duration is accurate only to seconds precision');
  }

  if (r.fault) {
    const fp = `${p}.fault`;
    if (!r.fault.abort && !r.fault.delay) add(fp, 'HTTP fault injection must have an abort and/or a delay');
    const a = r.fault.abort;
    if (a) {
      const kinds = [a.httpStatus, a.grpcStatus, a.http2Error].filter((x) => x !== undefined).length;
      if (kinds === 0) add(`${fp}.abort`, 'abort must specify one of httpStatus, grpcStatus or http2Error');
      if (kinds > 1) add(`${fp}.abort`, 'only one of httpStatus, grpcStatus, http2Error may be set (oneof)');
      if (a.httpStatus !== undefined && (a.httpStatus < 200 || a.httpStatus > 599))
        add(`${fp}.abort.httpStatus`, `invalid abort http status ${a.httpStatus}`);
      if (a.percentage?.value !== undefined && percentError(a.percentage.value))
        add(`${fp}.abort.percentage.value`, percentError(a.percentage.value)!);
    }
    const d = r.fault.delay;
    if (d) {
      if (d.fixedDelay === undefined && d.exponentialDelay === undefined) add(`${fp}.delay`, 'delay must specify fixedDelay');
      if (d.fixedDelay !== undefined && d.exponentialDelay !== undefined)
        add(`${fp}.delay`, 'only one of fixedDelay, exponentialDelay may be set (oneof)');
      if (d.fixedDelay !== undefined && nanos(d.fixedDelay) < 1_000_000n)
        add(`${fp}.delay.fixedDelay`, 'duration must be greater than 1ms');
      if (d.percentage?.value !== undefined && percentError(d.percentage.value))
        add(`${fp}.delay.percentage.value`, percentError(d.percentage.value)!);
      if (d.percent !== undefined && percentError(d.percent)) add(`${fp}.delay.percent`, percentError(d.percent)!);
    }
  }

  pushAll(out, destinationIssues(r.mirror, `${p}.mirror`));
  (r.mirrors ?? []).forEach((m, i) => pushAll(out, destinationIssues(m.destination, `${p}.mirrors[${i}].destination`)));
  if (r.mirrorPercentage?.value !== undefined && percentError(r.mirrorPercentage.value))
    add(`${p}.mirrorPercentage.value`, percentError(r.mirrorPercentage.value)!);

  if (r.redirect) {
    const rd = r.redirect;
    if (!rd.uri && !rd.authority && !rd.scheme && rd.port === undefined && rd.derivePort === undefined)
      add(`${p}.redirect`, 'redirect must specify URI, authority, scheme, or port');
    if (rd.redirectCode !== undefined && !REDIRECT_CODES.includes(rd.redirectCode))
      add(`${p}.redirect.redirectCode`, `${rd.redirectCode} is not a valid redirect code, must be 301, 302, 303, 307, or 308`);
    if (rd.port !== undefined && rd.derivePort !== undefined) add(`${p}.redirect`, 'only one of port, derivePort may be set (oneof)');
  }
  if (r.directResponse) {
    const s = r.directResponse.status;
    if (s < 200 || s > 599) add(`${p}.directResponse.status`, `status ${s} is not in the range 200..599`);
    const b = r.directResponse.body;
    if (b && b.string !== undefined && b.bytes !== undefined)
      add(`${p}.directResponse.body`, 'only one of string, bytes may be set (oneof)');
  }
  if (r.retries) {
    const rp = `${p}.retries`;
    if ((r.retries.attempts ?? 0) < 0) add(`${rp}.attempts`, 'attempts cannot be negative');
    if (r.retries.perTryTimeout !== undefined && nanos(r.retries.perTryTimeout) < 1_000_000n)
      add(`${rp}.perTryTimeout`, 'perTryTimeout must be greater than 1ms');
    if (r.retries.retryOn !== undefined) {
      for (const policy of r.retries.retryOn.split(',').map((s) => s.trim())) {
        if (policy === '' || RETRY_ON.has(policy)) continue;
        const code = Number(policy);
        if (!/^\d+$/.test(policy) || code < 100 || code > 599) add(`${rp}.retryOn`, `${policy} is not a valid retryOn value`);
      }
    }
  }
  if (r.rewrite) {
    const rw = r.rewrite;
    if (rw.uri === undefined && rw.authority === undefined && rw.uriRegexRewrite === undefined)
      add(`${p}.rewrite`, 'rewrite must specify URI, authority, or URI regex rewrite');
    if (rw.uri !== undefined && rw.uriRegexRewrite !== undefined)
      add(`${p}.rewrite`, 'rewrite may only contain one of URI or URI regex rewrite');
    if (rw.uriRegexRewrite) {
      if (!rw.uriRegexRewrite.match) add(`${p}.rewrite.uriRegexRewrite.match`, 'UriRegexRewrite requires Match');
      else pushAll(out, regexIssues(rw.uriRegexRewrite.match, `${p}.rewrite.uriRegexRewrite.match`));
    }
  }
  if (r.timeout !== undefined && !DURATION_RE.test(r.timeout)) add(`${p}.timeout`, 'invalid duration');
  pushAll(out, weightIssues(r.route ?? [], `${p}.route`));
  return out;
}
