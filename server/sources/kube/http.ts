// Raw JSON GETs against the API server, authenticated exactly like client-node's own requests
// (same RequestContext, same kubeconfig auth, same undici-based fetch). We read raw JSON rather than
// the typed API clients because those turn timestamps into Date objects and drop unknown fields, so a
// listed object would differ from the same object received on a watch.
import { HttpMethod, IsomorphicFetchHttpLibrary, RequestContext, type KubeConfig } from '@kubernetes/client-node';

export interface HttpResult {
  status: number;
  body: unknown;
}

/** An error carrying the HTTP status, shaped like client-node's watch errors (`statusCode`). */
export class KubeHttpError extends Error {
  readonly statusCode: number;
  constructor(message: string, statusCode: number) {
    super(message);
    this.name = 'KubeHttpError';
    this.statusCode = statusCode;
  }
}

/** GET `path` (with query) and parse JSON. Rejects only on transport errors, never on HTTP status. */
export async function getJson(kc: KubeConfig, path: string, signal?: AbortSignal, accept = 'application/json'): Promise<HttpResult> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const ctx = new RequestContext(cluster.server.replace(/\/+$/, '') + path, HttpMethod.GET);
  if (signal) ctx.setSignal(signal);
  await kc.applySecurityAuthentication(ctx);
  ctx.setHeaderParam('Accept', accept);
  const res = await new IsomorphicFetchHttpLibrary().send(ctx).toPromise();
  const text = await res.body.text();
  let body: unknown = undefined;
  try {
    body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    body = text;
  }
  return { status: res.httpStatusCode, body };
}

/** The message of a Kubernetes `Status` body, if it is one. */
export function statusMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message;
  return undefined;
}

/** A short, readable description of any error thrown by fetch, the informer or the API server. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { statusCode?: unknown }).statusCode;
    const cause = (err as { cause?: unknown }).cause;
    let msg = err.message;
    if (typeof code === 'number' && !msg.includes(String(code))) msg = `HTTP ${code} ${msg}`;
    if (cause instanceof Error) {
      const causeCode = (cause as { code?: unknown }).code;
      msg += ` (${typeof causeCode === 'string' ? `${causeCode}: ` : ''}${cause.message})`;
    }
    return msg;
  }
  if (err && typeof err === 'object') {
    const o = err as { message?: unknown; code?: unknown };
    if (typeof o.message === 'string') return o.message;
    try {
      return JSON.stringify(err);
    } catch {
      return String(err);
    }
  }
  return String(err);
}

/**
 * The kubeconfig, with every request it authenticates also asking for `accept` (client-node's Watch builds its
 * request headers from applySecurityAuthentication; used for metadata-only watches).
 */
export function withAccept(kc: KubeConfig, accept: string): KubeConfig {
  return new Proxy(kc, {
    get(target, prop, receiver) {
      if (prop === 'applySecurityAuthentication')
        return async (ctx: RequestContext) => {
          await target.applySecurityAuthentication(ctx);
          ctx.setHeaderParam('Accept', accept);
        };
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
