// TEST-ONLY. A loopback OpenID Connect provider that speaks the authorization-code flow with PKCE as the
// specs define it (OpenID Connect Core 1.0 §3.1, RFC 7636 S256, RFC 8414-style discovery): it signs in a
// configured user without asking, answers the token request only for the right code and verifier, and signs
// RS256 ID tokens with the nonce it was given. Never imported by product code.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface FakeIssuerUser {
  sub: string;
  email?: string;
  groups?: string[];
}

export class FakeIssuer {
  private server: Server | undefined;
  url = '';
  user: FakeIssuerUser = { sub: 'u-1', email: 'carol@example.com', groups: ['shop-team'] };
  readonly clientId: string;
  /** Token requests that were refused, with why (tests assert on them). */
  readonly refused: string[] = [];
  private readonly codes = new Map<string, { challenge: string; nonce: string; redirectUri: string }>();

  constructor(clientId = 'meshscope') {
    this.clientId = clientId;
  }

  async start(): Promise<void> {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    this.server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', this.url);
      const json = (code: number, body: unknown) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (u.pathname === '/.well-known/openid-configuration')
        return json(200, {
          issuer: this.url,
          authorization_endpoint: `${this.url}/authorize`,
          token_endpoint: `${this.url}/token`,
          jwks_uri: `${this.url}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
        });
      if (u.pathname === '/jwks') return json(200, { keys: [jwk] });
      if (u.pathname === '/authorize') {
        const q = u.searchParams;
        if (q.get('client_id') !== this.clientId || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge'))
          return json(400, { error: 'invalid_request' });
        const code = randomBytes(12).toString('base64url');
        this.codes.set(code, {
          challenge: q.get('code_challenge') ?? '',
          nonce: q.get('nonce') ?? '',
          redirectUri: q.get('redirect_uri') ?? '',
        });
        const back = new URL(q.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        back.searchParams.set('iss', this.url);
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (u.pathname === '/token' && req.method === 'POST') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          void (async () => {
            const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
            const entry = this.codes.get(form.get('code') ?? '');
            const verifier = form.get('code_verifier') ?? '';
            const why = !entry
              ? 'unknown code'
              : createHash('sha256').update(verifier).digest('base64url') !== entry.challenge
                ? 'PKCE verifier does not match the challenge'
                : form.get('redirect_uri') !== entry.redirectUri
                  ? 'redirect_uri differs'
                  : undefined;
            if (why || !entry) {
              this.refused.push(why ?? 'unknown code');
              return json(400, { error: 'invalid_grant', error_description: why });
            }
            this.codes.delete(form.get('code') ?? '');
            const now = Math.floor(Date.now() / 1000);
            const idToken = await new SignJWT({
              nonce: entry.nonce,
              ...(this.user.email ? { email: this.user.email } : {}),
              groups: this.user.groups ?? [],
            })
              .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
              .setIssuer(this.url)
              .setAudience(this.clientId)
              .setSubject(this.user.sub)
              .setIssuedAt(now)
              .setExpirationTime(now + 300)
              .sign(privateKey);
            json(200, { access_token: 'at', token_type: 'Bearer', expires_in: 300, id_token: idToken });
          })();
        });
        return;
      }
      json(404, { error: 'not found' });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    const addr = this.server.address();
    this.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
