// The ApiContext of one HTTP request: the runtime's context plus, when sign-in is on (`serve --auth`
// token|header|openid), the caller as a Viewer (server/auth/access.ts) — who it is and the namespaces of
// the snapshot it may see. Route adapters and pages take their context from here, never from
// rt.context() directly, so no view can skip the caller's namespaces (server/api/visibility.ts narrows).
import { forwardedPrincipal } from './auth/identity';
import { toResponse } from './api/http';
import { fail, type ApiContext } from './api/types';
import { type MeshscopeRuntime, readyRuntime } from './runtime';

export type RequestContext = { rt: MeshscopeRuntime; ctx: ApiContext; status?: undefined } | { status: 401; error: string };

/** The context for a request with these headers (what proxy.ts forwarded). */
export async function contextFor(headers: Headers): Promise<RequestContext> {
  const rt = await readyRuntime();
  const ctx = rt.context();
  if (!rt.access) return { rt, ctx };
  const namespaces = [...ctx.snapshot.namespaces.keys()];
  const r = await rt.access.viewer(forwardedPrincipal(headers), headers, namespaces, ctx.options.rootNamespace);
  if ('status' in r) return r;
  return { rt, ctx: { ...ctx, viewer: r.viewer } };
}

/** For route adapters: the context, or the 401 to answer. */
export async function apiContext(
  req: Request,
): Promise<{ rt: MeshscopeRuntime; ctx: ApiContext; response?: undefined } | { response: Response }> {
  const r = await contextFor(req.headers);
  if (r.status === 401) return { response: toResponse(fail(401, r.error), req.url) };
  return r;
}

/** For pages: the context, or undefined when the caller must sign in (the page redirects to /signin). */
export async function pageContext(headers: Headers): Promise<{ rt: MeshscopeRuntime; ctx: ApiContext } | undefined> {
  const r = await contextFor(headers);
  return r.status === 401 ? undefined : r;
}
