// TEST-ONLY. The authentication and authorization parts of the fake API server (server/sources/kube/testing/
// fakeApiServer.ts), as the real kube-apiserver answers them: TokenReview (authentication.k8s.io/v1: a known
// token → its user and groups, else `authenticated: false`), SubjectAccessReview (authorization.k8s.io/v1:
// allowed when a rule grants the verb on the resource in the namespace to the user or one of its groups), and
// impersonation on writes (`Impersonate-User` / repeated `Impersonate-Group`: the write is authorized as that
// user, with kube-apiserver's Forbidden message when no rule grants it). Rules are RBAC-like data the test sets.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface FakeUser {
  user: string;
  groups: string[];
}

/** A grant: `subject` (a user name, or `group:NAME`) may do `verbs` on `resources` in `namespaces` ('*' = any). */
export interface FakeGrant {
  subject: string;
  verbs: string[];
  resources: string[];
  namespaces: string[];
}

export interface ImpersonationRecord {
  method: string;
  path: string;
  user?: string;
  groups: string[];
}

const PATH_TOKEN_REVIEW = '/apis/authentication.k8s.io/v1/tokenreviews';
const PATH_SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

const send = (res: ServerResponse, code: number, body: unknown) => {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

export class FakeAuth {
  readonly tokens = new Map<string, FakeUser>();
  readonly grants: FakeGrant[] = [];
  /** Every write that carried impersonation headers (what the acceptance checks). */
  readonly impersonated: ImpersonationRecord[] = [];
  /** Reviews answered (TokenReview and SubjectAccessReview), to count cache hits from outside. */
  reviews = { token: 0, access: 0 };

  allows(u: FakeUser, verb: string, resource: string, namespace: string | undefined): boolean {
    const subjects = new Set([u.user, ...u.groups.map((g) => `group:${g}`)]);
    return this.grants.some(
      (g) =>
        subjects.has(g.subject) &&
        (g.verbs.includes(verb) || g.verbs.includes('*')) &&
        (g.resources.includes(resource) || g.resources.includes('*')) &&
        (g.namespaces.includes('*') || (namespace !== undefined && g.namespaces.includes(namespace))),
    );
  }

  /** Answers the review endpoints; false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
    if (req.method !== 'POST' || (pathname !== PATH_TOKEN_REVIEW && pathname !== PATH_SAR)) return false;
    void readJson(req).then(
      (body) => {
        const spec = (body.spec ?? {}) as Record<string, unknown>;
        if (pathname === PATH_TOKEN_REVIEW) {
          this.reviews.token++;
          const u = this.tokens.get(String(spec.token ?? ''));
          return send(res, 201, {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenReview',
            spec,
            status: u
              ? { authenticated: true, user: { username: u.user, groups: u.groups } }
              : { authenticated: false, error: 'invalid bearer token' },
          });
        }
        this.reviews.access++;
        const attrs = (spec.resourceAttributes ?? {}) as Record<string, string>;
        const u: FakeUser = { user: String(spec.user ?? ''), groups: (spec.groups as string[] | undefined) ?? [] };
        const allowed = this.allows(u, attrs.verb ?? '', attrs.resource ?? '', attrs.namespace);
        return send(res, 201, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec, status: { allowed } });
      },
      (e: unknown) => send(res, 400, { kind: 'Status', code: 400, message: String(e) }),
    );
    return true;
  }

  /**
   * A write (`verb` on `resource` "name" in `namespace`) under impersonation: undefined when allowed (or not
   * impersonated), else kube-apiserver's Forbidden message.
   */
  denyWrite(
    req: IncomingMessage,
    path: string,
    verb: string,
    resource: string,
    group: string,
    namespace: string | undefined,
    name: string,
  ): string | undefined {
    const user = req.headers['impersonate-user'];
    const raw = req.headers['impersonate-group'];
    if (typeof user !== 'string') return undefined;
    // Node joins repeated request headers with ", " (kube-apiserver reads them as a list).
    const groups = (Array.isArray(raw) ? raw : raw ? String(raw).split(', ') : []).filter(Boolean);
    this.impersonated.push({ method: req.method ?? '', path, user, groups });
    if (this.allows({ user, groups }, verb, resource, namespace)) return undefined;
    const full = group ? `${resource}.${group}` : resource;
    return `${full} "${name}" is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${group}"${namespace ? ` in the namespace "${namespace}"` : ''}`;
  }
}
