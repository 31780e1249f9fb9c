// Sign-in settings (`serve --auth none|token|header|openid` and its companions), read from the runtime
// config by proxy.ts (cheap checks on every request) and by the runtime (reviews, sessions, audit).
// Browser-unsafe only through its types' users; this file itself is pure.

export const AUTH_MODES = ['none', 'token', 'header', 'openid'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** oauth2-proxy's defaults (`--pass-user-headers`): the user and its groups, comma-separated. */
export const DEFAULT_USER_HEADER = 'X-Forwarded-User';
export const DEFAULT_GROUPS_HEADER = 'X-Forwarded-Groups';

/** The env var holding the key sessions and CSRF tokens are signed with (replicas must share it). */
export const SESSION_SECRET_ENV = 'MESHSCOPE_SESSION_SECRET';

export interface AuthSettings {
  mode: AuthMode;
  /** header mode: the request header naming the user, and the one listing its groups. */
  userHeader: string;
  groupsHeader: string;
  /** header mode: the peers (CIDRs) allowed to set those headers; every other peer gets 401. */
  trustedCidrs: readonly string[];
  openid?: { issuer: string; clientId: string; clientSecretFile?: string };
  auditLog?: string;
}

/** The runtime config's sign-in fields (server/api/runtimeConfig.ts). */
export interface AuthConfig {
  auth?: AuthMode;
  authHeaderTrustedCidrs?: string[];
  authHeaderUser?: string;
  authHeaderGroups?: string;
  openidIssuer?: string;
  openidClientId?: string;
  openidClientSecretFile?: string;
  auditLog?: string;
}

export function authSettings(c: AuthConfig): AuthSettings {
  return {
    mode: c.auth ?? 'none',
    userHeader: (c.authHeaderUser ?? DEFAULT_USER_HEADER).toLowerCase(),
    groupsHeader: (c.authHeaderGroups ?? DEFAULT_GROUPS_HEADER).toLowerCase(),
    trustedCidrs: c.authHeaderTrustedCidrs ?? [],
    ...(c.openidIssuer && c.openidClientId
      ? {
          openid: {
            issuer: c.openidIssuer,
            clientId: c.openidClientId,
            ...(c.openidClientSecretFile ? { clientSecretFile: c.openidClientSecretFile } : {}),
          },
        }
      : {}),
    ...(c.auditLog ? { auditLog: c.auditLog } : {}),
  };
}

/** Modes where each request belongs to a signed-in user whose namespaces the cluster decides. */
export const isMultiUser = (s: Pick<AuthSettings, 'mode'>): boolean => s.mode !== 'none';
