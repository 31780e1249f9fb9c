// `serve`'s sign-in flags (issue #26 §1, §3): closed by default on a non-loopback address, and each mode's
// companions validated before anything starts.
import { describe, expect, it } from 'vitest';
import { planServe } from './commands/serve';

const plan = (argv: string[]) => planServe(argv, '/w', undefined, {});
const KUBE = ['--kubeconfig', 'kc.yaml'];

describe('serve --auth (issue #26 §1)', () => {
  it('refuses a non-loopback --address without --auth, and says why', async () => {
    await expect(plan(['--address', '0.0.0.0'])).rejects.toThrow(
      /not loopback: anyone who reaches it would see every namespace.*--auth token\|header\|openid/,
    );
    await expect(plan(['--address', '::'])).rejects.toThrow(/not loopback/);
  });

  it('takes --auth none on a non-loopback address only with --i-understand-this-is-open', async () => {
    await expect(plan(['--address', '0.0.0.0', '--auth', 'none'])).rejects.toThrow(/--i-understand-this-is-open/);
    const p = await plan(['--address', '0.0.0.0', '--auth', 'none', '--i-understand-this-is-open']);
    expect(p.runtime.auth).toBe('none');
  });

  it("keeps today's behaviour on loopback: no --auth needed", async () => {
    expect((await plan([])).runtime.auth).toBeUndefined();
    expect((await plan(['--address', '127.0.0.1'])).runtime.auth).toBeUndefined();
  });

  it('refuses an unknown mode, and sign-in without a cluster to ask', async () => {
    await expect(plan(['--auth', 'basic'])).rejects.toThrow(/--auth takes one of none, token, header, openid/);
    await expect(plan(['--auth', 'token'])).rejects.toThrow(/needs a cluster/);
  });

  it('token mode on a cluster; the shared apply token is only for --auth none', async () => {
    const p = await plan([...KUBE, '--auth', 'token', '--address', '0.0.0.0', '--audit-log', 'audit.jsonl']);
    expect(p.runtime).toMatchObject({ auth: 'token', auditLog: '/w/audit.jsonl' });
    await expect(planServe([...KUBE, '--auth', 'token'], '/w', undefined, { MESHSCOPE_AUTH_TOKEN: 'x' })).rejects.toThrow(
      /shared token .* only for --auth none/,
    );
  });

  it('header mode needs trusted CIDRs, validates them and the header names', async () => {
    await expect(plan([...KUBE, '--auth', 'header'])).rejects.toThrow(/--auth-header-trusted-cidrs/);
    await expect(plan([...KUBE, '--auth', 'header', '--auth-header-trusted-cidrs', '10.0.0.0/33'])).rejects.toThrow(/bad prefix length/);
    await expect(plan([...KUBE, '--auth', 'header', '--auth-header-trusted-cidrs', 'proxy'])).rejects.toThrow(/not a CIDR/);
    const p = await plan([
      ...KUBE,
      '--auth',
      'header',
      '--auth-header-trusted-cidrs',
      '10.1.0.0/16,127.0.0.1/32',
      '--auth-header-user',
      'X-Auth-Request-User',
    ]);
    expect(p.runtime).toMatchObject({
      auth: 'header',
      authHeaderTrustedCidrs: ['10.1.0.0/16', '127.0.0.1/32'],
      authHeaderUser: 'X-Auth-Request-User',
      authHeaderGroups: 'X-Forwarded-Groups',
    });
    await expect(
      plan([...KUBE, '--auth', 'header', '--auth-header-trusted-cidrs', '::1/128', '--auth-header-user', 'X: y']),
    ).rejects.toThrow(/takes a header name/);
  });

  it('flags of one mode are refused in another', async () => {
    await expect(plan([...KUBE, '--auth', 'token', '--auth-header-user', 'X-User'])).rejects.toThrow(/belong to --auth header/);
    await expect(plan([...KUBE, '--auth', 'token', '--openid-issuer', 'https://idp'])).rejects.toThrow(/belong to --auth openid/);
  });

  it('openid needs an https issuer (http only on loopback) and a client id', async () => {
    await expect(plan([...KUBE, '--auth', 'openid'])).rejects.toThrow(/--openid-issuer URL and --openid-client-id/);
    await expect(plan([...KUBE, '--auth', 'openid', '--openid-issuer', 'http://idp.example', '--openid-client-id', 'm'])).rejects.toThrow(
      /must be https/,
    );
    const p = await plan([...KUBE, '--auth', 'openid', '--openid-issuer', 'http://127.0.0.1:5556/dex', '--openid-client-id', 'meshscope']);
    expect(p.runtime).toMatchObject({ auth: 'openid', openidIssuer: 'http://127.0.0.1:5556/dex', openidClientId: 'meshscope' });
  });
});

describe('serve --help (issue #26 §3: it lists every flag)', () => {
  it('names every sign-in flag serve accepts', async () => {
    const { SERVE_USAGE } = await import('./commands/serve');
    const { SIGN_IN_FLAGS } = await import('./commands/serveSignIn');
    for (const f of SIGN_IN_FLAGS) expect(SERVE_USAGE).toContain(`--${f.name}`);
  });
});
