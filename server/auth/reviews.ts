// The cluster decides who a token belongs to (TokenReview) and what a user may see (SubjectAccessReview:
// "may USER, in GROUPS, list pods in NAMESPACE?"), asked with meshscope's own credentials, as Kiali and
// kube-rbac-proxy do. Answers are cached briefly and the caches are bounded; a token is cached by its
// SHA-256 only, never itself. Owned by the runtime (server/auth/access.ts).
import { createHash } from 'node:crypto';
import { AuthenticationV1Api, AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';

export interface Reviewed {
  authenticated: boolean;
  user?: string;
  groups?: string[];
  error?: string;
}

export interface Reviews {
  tokenReview(token: string): Promise<Reviewed>;
  /** Whether the user may list pods in `namespace` (what seeing a namespace means in meshscope, as in Kiali). */
  canListPods(user: string, groups: readonly string[], namespace: string): Promise<boolean>;
}

/** A small TTL cache with a size bound (oldest entries go first). */
export class TtlCache<V> {
  private readonly map = new Map<string, { at: number; value: V }>();
  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => number,
  ) {}
  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (this.now() - e.at > this.ttlMs) {
      this.map.delete(key);
      return undefined;
    }
    return e.value;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, { at: this.now(), value });
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }
  /** Changes an entry's value, keeping its age (a window counter). */
  bump(key: string, value: V): void {
    const e = this.map.get(key);
    if (e) e.value = value;
    else this.set(key, value);
  }
  get size(): number {
    return this.map.size;
  }
}

const sha = (s: string): string => createHash('sha256').update(s).digest('base64url');

const errText = (e: unknown): string => {
  const err = e as { code?: number; body?: unknown; message?: string };
  return `${err.code ? `${err.code}: ` : ''}${err.message ?? String(e)}`;
};

/** Reviews against the API server meshscope reads (its ServiceAccount in the cluster, else the kubeconfig user). */
export class KubeReviews implements Reviews {
  private readonly tokens: TtlCache<Reviewed>;
  private readonly access: TtlCache<boolean>;
  constructor(
    private readonly kc: () => KubeConfig,
    now: () => number = Date.now,
    ttl = { tokenMs: 60_000, accessMs: 30_000 },
  ) {
    this.tokens = new TtlCache(ttl.tokenMs, 10_000, now);
    this.access = new TtlCache(ttl.accessMs, 50_000, now);
  }

  async tokenReview(token: string): Promise<Reviewed> {
    const key = sha(token);
    const hit = this.tokens.get(key);
    if (hit) return hit;
    try {
      const api = this.kc().makeApiClient(AuthenticationV1Api);
      const r = await api.createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } });
      const st = r.status;
      const out: Reviewed = st?.authenticated
        ? { authenticated: true, user: st.user?.username ?? '', groups: st.user?.groups ?? [] }
        : { authenticated: false, error: st?.error || 'the cluster did not authenticate this token' };
      if (out.authenticated && !out.user) return { authenticated: false, error: 'the TokenReview named no user' };
      this.tokens.set(key, out);
      return out;
    } catch (e) {
      // Not cached: the next request asks again.
      return { authenticated: false, error: `TokenReview failed: ${errText(e)}` };
    }
  }

  async canListPods(user: string, groups: readonly string[], namespace: string): Promise<boolean> {
    const key = JSON.stringify([user, [...groups].sort(), namespace]);
    const hit = this.access.get(key);
    if (hit !== undefined) return hit;
    try {
      const api = this.kc().makeApiClient(AuthorizationV1Api);
      const r = await api.createSubjectAccessReview({
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user, groups: [...groups], resourceAttributes: { namespace, verb: 'list', resource: 'pods', version: 'v1' } },
        },
      });
      const allowed = r.status?.allowed === true;
      this.access.set(key, allowed);
      return allowed;
    } catch {
      // Closed on error, and not cached.
      return false;
    }
  }
}
