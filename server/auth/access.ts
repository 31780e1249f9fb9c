// Access control for one runtime: turns the identity proxy.ts forwarded into a Viewer — who the caller
// is and which namespaces it may see — asking the cluster (server/auth/reviews.ts) and caching briefly.
// `--auth none` has no AccessControl: every caller sees everything, as before.
//
// What "see" means (docs/security.md): a namespace is visible when the user may list pods in it (per
// namespace as a whole, like Kiali). An object is visible when its namespace is; the root namespace's objects (mesh-wide config) and the
// MeshConfig are visible to users who see the root namespace; cluster-scoped objects to every signed-in user.
import type { AuthSettings } from './settings';
import type { Principal } from './identity';
import { type Reviewed, type Reviews, TtlCache } from './reviews';
import { bearerFrom } from './bearer';
import { providerConfig } from './openid';

export interface Viewer {
  user: string;
  groups: readonly string[];
  /** Every namespace of the snapshot is visible (the views need no filtering). */
  all: boolean;
  /** Whether an object of namespace `ns` (undefined: cluster-scoped) is visible. */
  sees(ns: string | undefined): boolean;
  /** How the caller signed in (session and header callers need the CSRF token for writes). */
  via: Principal['via'];
  sid?: string;
}

export type ViewerResult = { viewer: Viewer } | { status: 401; error: string };

/** Sign-in attempts allowed per peer address and minute (a token guesser gets 429 after that). */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

export class AccessControl {
  /** Signed-out session ids, until their cookies would have expired anyway. */
  private readonly revoked = new Map<string, number>();
  private readonly attempts: TtlCache<number>;
  constructor(
    readonly settings: AuthSettings,
    private readonly reviews: Reviews,
    private readonly nowSec: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.attempts = new TtlCache(60_000, 10_000, () => this.nowSec() * 1000);
  }

  /** Counts one sign-in attempt from `peer`; false once it made too many in the last minute. */
  allowAttempt(peer: string): boolean {
    const n = (this.attempts.get(peer) ?? 0) + 1;
    if (n === 1) this.attempts.set(peer, n);
    else this.attempts.bump(peer, n);
    return n <= SIGN_IN_ATTEMPTS_PER_MINUTE;
  }

  private provider: ReturnType<typeof providerConfig> | undefined;

  /** The identity provider's configuration (`--auth openid`), discovered once; retried after a failure. */
  openidProvider(): ReturnType<typeof providerConfig> {
    if (!this.provider) {
      this.provider = providerConfig(this.settings);
      this.provider.catch(() => {
        this.provider = undefined;
      });
    }
    return this.provider;
  }

  /** `POST /api/auth/login {token}`: the cluster's TokenReview of it. */
  signIn(token: string): Promise<Reviewed> {
    return this.reviews.tokenReview(token);
  }

  revoke(sid: string, exp: number): void {
    const now = this.nowSec();
    for (const [k, until] of this.revoked) if (until <= now) this.revoked.delete(k);
    this.revoked.set(sid, exp);
  }

  isRevoked(sid: string): boolean {
    const until = this.revoked.get(sid);
    return until !== undefined && until > this.nowSec();
  }

  /** Who the caller is: a session, the auth proxy's headers, or a bearer token (TokenReview). */
  async identify(p: Principal | undefined, headers: Headers): Promise<{ user: string; groups: string[] } | { status: 401; error: string }> {
    if (!p) return { status: 401, error: 'sign in first: POST /api/auth/login, or send Authorization: Bearer <token>' };
    if (p.via === 'bearer') {
      const token = bearerFrom(headers);
      if (!token) return { status: 401, error: 'authentication required' };
      const r = await this.reviews.tokenReview(token);
      if (!r.authenticated || !r.user) return { status: 401, error: `token not accepted: ${r.error ?? 'unauthenticated'}` };
      return { user: r.user, groups: r.groups ?? [] };
    }
    if (p.via === 'session' && this.isRevoked(p.sid)) return { status: 401, error: 'this session was signed out: sign in again' };
    return { user: p.user, groups: p.groups };
  }

  /** The caller as a Viewer over `namespaces` (the snapshot's), or 401. `root`: the mesh root namespace. */
  async viewer(p: Principal | undefined, headers: Headers, namespaces: readonly string[], root: string): Promise<ViewerResult> {
    const who = await this.identify(p, headers);
    if ('status' in who) return who;
    const wanted = [...new Set([...namespaces, root])];
    const allowed = await Promise.all(wanted.map((ns) => this.reviews.canListPods(who.user, who.groups, ns)));
    const visible = new Set(wanted.filter((_ns, i) => allowed[i]));
    const all = visible.size === wanted.length;
    return {
      viewer: {
        user: who.user,
        groups: who.groups,
        all,
        sees: (ns) => ns === undefined || visible.has(ns),
        via: p?.via ?? 'bearer',
        ...(p?.via === 'session' ? { sid: p.sid } : {}),
      },
    };
  }
}
