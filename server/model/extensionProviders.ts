// MeshConfig.extensionProviders (istio.io/api mesh/v1alpha1 MeshConfig.ExtensionProvider): the external
// authorization providers an AuthorizationPolicy with action CUSTOM names in `provider.name`. Only the two
// ext_authz kinds are typed; other kinds (tracing, access logging) are kept as written and not used here.
// Checks follow istiod's pilot/pkg/security/authz/builder/extauthz.go (processExtensionProvider, parsePort,
// parseStatusOnError, buildExtAuthzHTTP's pathPrefix rule) and ValidateMeshConfig (unique, non-empty names).
import { normalizeDuration } from '../lib/duration';

export interface ExtAuthzRequestBody {
  maxRequestBytes?: number;
  allowPartialMessage?: boolean;
  packAsBytes?: boolean;
}

interface ExtAuthzCommon {
  /** `ns/host` or `host` as written; the cluster is built from the host part. */
  service: string;
  port: number;
  /** Canonical duration, when set. */
  timeout?: string;
  failOpen: boolean;
  /** Numeric HTTP status, when set. */
  statusOnError?: number;
  includeRequestBodyInCheck?: ExtAuthzRequestBody;
}

export interface ExtAuthzGrpcProvider extends ExtAuthzCommon {
  kind: 'grpc';
}

export interface ExtAuthzHttpProvider extends ExtAuthzCommon {
  kind: 'http';
  pathPrefix?: string;
  includeRequestHeadersInCheck: string[];
  includeAdditionalHeadersInCheck: Record<string, string>;
  headersToUpstreamOnAllow: string[];
  headersToDownstreamOnDeny: string[];
  headersToDownstreamOnAllow: string[];
}

export interface ExtensionProvider {
  name: string;
  extAuthz?: ExtAuthzGrpcProvider | ExtAuthzHttpProvider;
}

/** A problem with one entry: its field path below `extensionProviders[i]`. */
export interface ExtensionProviderIssue {
  index: number;
  path: string;
  message: string;
}

const MAX_PROVIDERS = 256;

// envoy.type.v3.StatusCode values (the codes istiod's parseStatusOnError accepts).
const STATUS_CODES = new Set([
  100, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407,
  408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423, 424, 426, 428, 429, 431, 500, 501, 502, 503, 504, 505, 506, 507, 508,
  510, 511,
]);

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The providers of MeshConfig.extensionProviders; entries with errors are left out (a CUSTOM policy naming one denies). */
export function parseExtensionProviders(raw: unknown): { providers: ExtensionProvider[]; issues: ExtensionProviderIssue[] } {
  const issues: ExtensionProviderIssue[] = [];
  const providers: ExtensionProvider[] = [];
  if (!Array.isArray(raw)) return { providers, issues: [{ index: -1, path: '', message: 'must be a list' }] };
  const seen = new Set<string>();
  raw.slice(0, MAX_PROVIDERS).forEach((entry, index) => {
    const bad = (path: string, message: string) => issues.push({ index, path, message });
    if (!isMap(entry)) return bad('', 'must be a map');
    const name = entry.name;
    if (typeof name !== 'string' || name === '') return bad('name', 'extension provider name must not be empty');
    if (seen.has(name)) return bad('name', `extension provider name must be unique, found duplicate: ${name}`);
    seen.add(name);
    const before = issues.length;
    let extAuthz: ExtensionProvider['extAuthz'];
    if (entry.envoyExtAuthzGrpc !== undefined && entry.envoyExtAuthzHttp !== undefined)
      bad('', 'only one of envoyExtAuthzGrpc and envoyExtAuthzHttp may be set');
    else if (entry.envoyExtAuthzGrpc !== undefined)
      extAuthz = parseExtAuthz('grpc', entry.envoyExtAuthzGrpc, (p, m) => bad(`envoyExtAuthzGrpc${p}`, m));
    else if (entry.envoyExtAuthzHttp !== undefined)
      extAuthz = parseExtAuthz('http', entry.envoyExtAuthzHttp, (p, m) => bad(`envoyExtAuthzHttp${p}`, m));
    if (issues.length > before) return;
    providers.push(extAuthz ? { name, extAuthz } : { name });
  });
  if (raw.length > MAX_PROVIDERS)
    issues.push({ index: MAX_PROVIDERS, path: '', message: `more than ${MAX_PROVIDERS} extension providers; the rest are ignored` });
  return { providers, issues };
}

function parseExtAuthz(
  kind: 'grpc' | 'http',
  v: unknown,
  bad: (path: string, message: string) => void,
): ExtAuthzGrpcProvider | ExtAuthzHttpProvider | undefined {
  if (!isMap(v)) {
    bad('', 'must be a map');
    return undefined;
  }
  const service = v.service;
  if (typeof service !== 'string' || service === '') bad('.service', 'service must not be empty');
  const port = v.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    bad('.port', `port must be in the range [1, 65535], found: ${JSON.stringify(port ?? 0)}`);
  let timeout: string | undefined;
  if (v.timeout !== undefined && v.timeout !== null) {
    timeout = normalizeDuration(v.timeout);
    if (timeout === undefined) bad('.timeout', `invalid duration ${JSON.stringify(v.timeout)}`);
  }
  if (v.failOpen !== undefined && typeof v.failOpen !== 'boolean') bad('.failOpen', 'must be true or false');
  let statusOnError: number | undefined;
  if (v.statusOnError !== undefined && v.statusOnError !== '') {
    statusOnError = typeof v.statusOnError === 'string' && /^\d+$/.test(v.statusOnError) ? Number(v.statusOnError) : Number.NaN;
    if (!STATUS_CODES.has(statusOnError)) bad('.statusOnError', `unsupported statusOnError ${JSON.stringify(v.statusOnError)}`);
  }
  let body: ExtAuthzRequestBody | undefined;
  if (v.includeRequestBodyInCheck !== undefined) {
    const b = v.includeRequestBodyInCheck;
    if (!isMap(b)) bad('.includeRequestBodyInCheck', 'must be a map');
    else {
      if (
        b.maxRequestBytes !== undefined &&
        !(typeof b.maxRequestBytes === 'number' && Number.isInteger(b.maxRequestBytes) && b.maxRequestBytes >= 0)
      )
        bad('.includeRequestBodyInCheck.maxRequestBytes', 'must be a non-negative integer');
      for (const k of ['allowPartialMessage', 'packAsBytes'] as const)
        if (b[k] !== undefined && typeof b[k] !== 'boolean') bad(`.includeRequestBodyInCheck.${k}`, 'must be true or false');
      body = {
        ...(b.maxRequestBytes !== undefined ? { maxRequestBytes: b.maxRequestBytes as number } : {}),
        ...(b.allowPartialMessage !== undefined ? { allowPartialMessage: b.allowPartialMessage as boolean } : {}),
        ...(b.packAsBytes !== undefined ? { packAsBytes: b.packAsBytes as boolean } : {}),
      };
    }
  }
  const common: ExtAuthzCommon = {
    service: service as string,
    port: port as number,
    failOpen: v.failOpen === true,
    ...(timeout ? { timeout } : {}),
    ...(statusOnError !== undefined ? { statusOnError } : {}),
    ...(body ? { includeRequestBodyInCheck: body } : {}),
  };
  if (kind === 'grpc') return { kind, ...common };
  const list = (k: string): string[] => {
    const l = v[k] ?? [];
    if (!isStrings(l)) {
      bad(`.${k}`, 'must be a list of strings');
      return [];
    }
    return [...l];
  };
  const pathPrefix = v.pathPrefix;
  if (pathPrefix !== undefined && pathPrefix !== '' && (typeof pathPrefix !== 'string' || !pathPrefix.startsWith('/')))
    bad('.pathPrefix', `pathPrefix must begin with \`/\`, found: ${JSON.stringify(pathPrefix)}`);
  const additional = v.includeAdditionalHeadersInCheck ?? {};
  if (!isMap(additional) || !Object.values(additional).every((x) => typeof x === 'string'))
    bad('.includeAdditionalHeadersInCheck', 'must be a map of strings');
  // includeHeadersInCheck is the deprecated name of includeRequestHeadersInCheck (used when the new one is unset).
  const requestHeaders = list('includeRequestHeadersInCheck');
  return {
    kind,
    ...common,
    ...(typeof pathPrefix === 'string' && pathPrefix ? { pathPrefix } : {}),
    includeRequestHeadersInCheck: requestHeaders.length > 0 ? requestHeaders : list('includeHeadersInCheck'),
    includeAdditionalHeadersInCheck: isMap(additional) ? ({ ...additional } as Record<string, string>) : {},
    headersToUpstreamOnAllow: list('headersToUpstreamOnAllow'),
    headersToDownstreamOnDeny: list('headersToDownstreamOnDeny'),
    headersToDownstreamOnAllow: list('headersToDownstreamOnAllow'),
  };
}
