// What every HTTP request must pass before a page or route sees it (proxy.ts applies it; pure, so it is
// unit-tested without a server): a URL that is not too long and decodes to UTF-8, an expected `Host`
// (DNS-rebinding defence), and for state-changing methods a same-origin browser request with a JSON
// body. Plus the security headers every response carries. DESIGN.md §6 "closed by default".
import { isIP } from 'node:net';

/**
 * Longest request target (path + query) accepted; longer is 414. Room for the sandbox's shareable
 * drafts (`/sandbox?d=…`, up to 60k characters compressed). `serve` raises Node's header limit to
 * MAX_HEADER_BYTES so this is what a client meets first; past that, Node answers 431 itself.
 */
export const MAX_URL_BYTES = 48 * 1024;
export const MAX_HEADER_BYTES = 64 * 1024;

export interface Refusal {
  status: number;
  error: string;
}

/** Methods that change state (RFC 9110 §9.2.1: everything but the safe ones). */
export const isUnsafeMethod = (method: string): boolean => !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());

const HEX = /^[0-9a-fA-F]{2}$/;
const decoder = () => new TextDecoder('utf-8', { fatal: true });

/**
 * Percent-decodes `s` strictly: a `%` not followed by two hex digits, or bytes that are not UTF-8
 * (overlong forms and lone surrogates included: the WHATWG decoder is strict), give undefined.
 */
export function strictDecode(s: string): string | undefined {
  if (!s.includes('%')) return s;
  const bytes: number[] = [];
  const enc = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    if (s[i] === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!HEX.test(hex)) return undefined;
      bytes.push(Number.parseInt(hex, 16));
      i += 3;
    } else {
      const cp = s.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      for (const b of enc.encode(ch)) bytes.push(b);
      i += ch.length;
    }
  }
  try {
    return decoder().decode(new Uint8Array(bytes));
  } catch {
    return undefined;
  }
}

// C0 controls and DEL: never part of a proxy id, file path or object name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** 414 for an over-long target, 400 for bad percent-encoding or control characters. `target` is path + query as sent. */
export function checkTarget(target: string): Refusal | undefined {
  if (Buffer.byteLength(target, 'utf8') > MAX_URL_BYTES) {
    return { status: 414, error: `request URL is longer than ${MAX_URL_BYTES} bytes` };
  }
  const q = target.indexOf('?');
  const path = q >= 0 ? target.slice(0, q) : target;
  const query = q >= 0 ? target.slice(q + 1) : '';
  const decodedPath = strictDecode(path);
  if (decodedPath === undefined) return { status: 400, error: 'request path has invalid percent-encoding or is not UTF-8' };
  if (CONTROL.test(decodedPath)) return { status: 400, error: 'request path contains control characters' };
  for (const part of query.split('&')) {
    if (strictDecode(part.replace(/\+/g, ' ')) === undefined) {
      return { status: 400, error: 'query string has invalid percent-encoding or is not UTF-8' };
    }
  }
  return undefined;
}

/** The host name of a `Host` header value, lower-cased, without port; IPv6 keeps its brackets. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 ? h.slice(0, end + 1) : h;
  }
  const colon = h.indexOf(':');
  return colon >= 0 ? h.slice(0, colon) : h;
}

const bracket = (ip: string): string => (isIP(ip) === 6 ? `[${ip.toLowerCase()}]` : ip.toLowerCase());

export interface HostPolicy {
  /** Names always accepted: localhost, the loopback literals, the bound address, `--allowed-host` names. */
  names: ReadonlySet<string>;
  /** Bound to a wildcard (0.0.0.0 / ::): the machine's own interface addresses are accepted too (kubelet probes use the pod IP). */
  wildcard: boolean;
}

export function hostPolicy(address: string, allowedHosts: readonly string[] = []): HostPolicy {
  const names = new Set(['localhost', '127.0.0.1', '[::1]', bracket(address), ...allowedHosts.map((h) => hostName(h))]);
  return { names, wildcard: address === '0.0.0.0' || address === '::' };
}

/**
 * Whether a `Host` header names this server. A DNS-rebinding page reaches the server under the
 * attacker's host name, so only names the operator expects pass; IP literals pass only if they are
 * the bound address or, on a wildcard bind, one of `localAddresses` (asked only when needed).
 */
export function hostAllowed(host: string | null, policy: HostPolicy, localAddresses: () => readonly string[]): boolean {
  if (!host) return false;
  const name = hostName(host);
  if (policy.names.has(name)) return true;
  if (!policy.wildcard) return false;
  const literal = name.startsWith('[') ? name.slice(1, -1) : name;
  if (isIP(literal) === 0) return false;
  return localAddresses().some((a) => bracket(a) === bracket(literal));
}

const isJson = (contentType: string | null): boolean => {
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return mime === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mime);
};

/**
 * A state-changing request must come from this origin: a browser sends `Sec-Fetch-Site` and/or
 * `Origin` on every cross-site POST, and a page cannot forge either. Requests with neither are not
 * from a browser page (curl, the CLI) and pass. A body must be JSON (a cross-site form cannot send it
 * without a CORS preflight, which is never granted). `allowForm` accepts a form-encoded body (the login form).
 */
export function checkUnsafe(
  method: string,
  headers: Headers,
  opts: { hasBody: boolean; allowForm?: boolean } = { hasBody: true },
): Refusal | undefined {
  if (!isUnsafeMethod(method)) return undefined;
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none')
    return { status: 403, error: `cross-site ${method} refused (Sec-Fetch-Site: ${site})` };
  const origin = headers.get('origin');
  if (origin !== null) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host.toLowerCase();
    } catch {
      originHost = undefined;
    }
    const hosts = [headers.get('host'), headers.get('x-forwarded-host')].filter((h): h is string => !!h).map((h) => h.trim().toLowerCase());
    if (!originHost || !hosts.includes(originHost)) return { status: 403, error: `cross-origin ${method} refused (Origin: ${origin})` };
  }
  if (opts.hasBody) {
    const type = headers.get('content-type');
    const form = opts.allowForm && (type ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
    if (!form && !isJson(type))
      return { status: 415, error: `${method} bodies must be JSON (Content-Type: application/json), got ${type ?? 'none'}` };
  }
  return undefined;
}

/**
 * The Content-Security-Policy of every response: scripts only from this origin with this response's
 * nonce (Next.js puts it on its own scripts; 'strict-dynamic' lets them load their chunks), no
 * plugins, no framing, no foreign connections. Styles allow inline: React renders `style` attributes
 * and cytoscape sets element styles. Dev mode adds 'unsafe-eval' (React's dev tooling needs it).
 */
export function contentSecurityPolicy(nonce: string, dev = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers every page and API response carries. */
export function securityHeaders(nonce: string, dev = false): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(nonce, dev),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  };
}
