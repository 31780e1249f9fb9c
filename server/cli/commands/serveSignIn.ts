// `serve`'s sign-in flags (issue #26; docs/security.md): --auth none|token|header|openid,
// --i-understand-this-is-open, --auth-header-trusted-cidrs, --auth-header-user, --auth-header-groups,
// --openid-issuer, --openid-client-id, --openid-client-secret-file, --audit-log. Closed by default: a
// non-loopback --address without --auth refuses to start, and so does `--auth none` there unless
// --i-understand-this-is-open says it on purpose.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RuntimeConfig } from '../../api/runtimeConfig';
import { cidrList } from '../../auth/peer';
import { AUTH_MODES, type AuthMode, DEFAULT_GROUPS_HEADER, DEFAULT_USER_HEADER } from '../../auth/settings';
import { isLoopbackAddress } from '../../api/responseCache';
import { type FlagSpec, list, type ParsedArgs, str, UsageError } from '../args';

export const SIGN_IN_FLAGS: FlagSpec[] = [
  { name: 'auth', kind: 'string' },
  { name: 'i-understand-this-is-open', kind: 'boolean' },
  { name: 'auth-header-trusted-cidrs', kind: 'string', repeat: true },
  { name: 'auth-header-user', kind: 'string' },
  { name: 'auth-header-groups', kind: 'string' },
  { name: 'openid-issuer', kind: 'string' },
  { name: 'openid-client-id', kind: 'string' },
  { name: 'openid-client-secret-file', kind: 'string' },
  { name: 'audit-log', kind: 'string' },
];

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;

export function signInOptions(
  args: ParsedArgs,
  cwd: string,
  at: { kube: boolean; address: string; sharedToken: boolean },
): Partial<RuntimeConfig> {
  const given = str(args, 'auth');
  if (given !== undefined && !(AUTH_MODES as readonly string[]).includes(given))
    throw new UsageError(`--auth takes one of ${AUTH_MODES.join(', ')}, got "${given}"`);
  const mode = given as AuthMode | undefined;
  const open = args.flags['i-understand-this-is-open'] === true;
  if (!isLoopbackAddress(at.address)) {
    if (mode === undefined)
      throw new UsageError(
        `--address ${at.address} is not loopback: anyone who reaches it would see every namespace. Choose how users sign in ` +
          '(--auth token|header|openid), or say --auth none --i-understand-this-is-open',
      );
    if (mode === 'none' && !open)
      throw new UsageError(
        `--auth none on --address ${at.address} serves every namespace to anyone: add --i-understand-this-is-open to mean it`,
      );
  }
  const out: Partial<RuntimeConfig> = {};
  if (mode) out.auth = mode;
  const audit = str(args, 'audit-log');
  if (audit) out.auditLog = resolve(cwd, audit);
  const cidrs = list(args, 'auth-header-trusted-cidrs').flatMap((c) =>
    c
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
  const userHeader = str(args, 'auth-header-user');
  const groupsHeader = str(args, 'auth-header-groups');
  const issuer = str(args, 'openid-issuer');
  const clientId = str(args, 'openid-client-id');
  const secretFile = str(args, 'openid-client-secret-file');
  if (mode !== 'header' && (cidrs.length || userHeader || groupsHeader))
    throw new UsageError('--auth-header-* flags belong to --auth header');
  if (mode !== 'openid' && (issuer || clientId || secretFile)) throw new UsageError('--openid-* flags belong to --auth openid');
  if (!mode || mode === 'none') return out;
  if (!at.kube)
    throw new UsageError(
      `--auth ${mode} needs a cluster (--kubeconfig/--context/--in-cluster): the cluster says who users are and which namespaces they see`,
    );
  if (at.sharedToken)
    throw new UsageError(
      `--auth ${mode} signs users in: the shared token (--auth-token-file, MESHSCOPE_AUTH_TOKEN) is only for --auth none`,
    );
  if (mode === 'header') {
    if (!cidrs.length)
      throw new UsageError(
        '--auth header needs --auth-header-trusted-cidrs CIDR[,CIDR…]: the addresses of the auth proxy allowed to name users',
      );
    try {
      cidrList(cidrs);
    } catch (e) {
      throw new UsageError(`--auth-header-trusted-cidrs: ${(e as Error).message}`);
    }
    for (const [flag, v] of [
      ['--auth-header-user', userHeader],
      ['--auth-header-groups', groupsHeader],
    ] as const)
      if (v !== undefined && !HEADER_NAME.test(v)) throw new UsageError(`${flag} takes a header name, got "${v}"`);
    out.authHeaderTrustedCidrs = cidrs;
    out.authHeaderUser = userHeader ?? DEFAULT_USER_HEADER;
    out.authHeaderGroups = groupsHeader ?? DEFAULT_GROUPS_HEADER;
  }
  if (mode === 'openid') {
    if (!issuer || !clientId) throw new UsageError('--auth openid needs --openid-issuer URL and --openid-client-id ID');
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      throw new UsageError(`--openid-issuer takes a URL, got "${issuer}"`);
    }
    if (url.protocol !== 'https:' && !isLoopbackAddress(url.hostname.replace(/^\[|\]$/g, '')))
      throw new UsageError('--openid-issuer must be https (plain http only for a loopback issuer)');
    out.openidIssuer = issuer;
    out.openidClientId = clientId;
    if (secretFile) {
      const f = resolve(cwd, secretFile);
      if (!existsSync(f)) throw new UsageError(`--openid-client-secret-file ${secretFile} does not exist`);
      out.openidClientSecretFile = f;
    }
  }
  return out;
}

/** The start-up line's sign-in part. */
export function signInLine(r: RuntimeConfig): string {
  const how =
    r.auth === 'token'
      ? 'users sign in with a Kubernetes token (TokenReview)'
      : r.auth === 'header'
        ? `users from ${r.authHeaderUser} sent by ${r.authHeaderTrustedCidrs?.join(', ')}`
        : `users sign in with OpenID Connect (${r.openidIssuer})`;
  return `; sign-in: ${how}; namespaces and applies as each user's RBAC allows${r.auditLog ? `; audit log ${r.auditLog}` : ''}`;
}
