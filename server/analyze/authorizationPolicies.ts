// IST0127 NoMatchingWorkloadsFound and IST0101 ReferencedResourceNotFound for AuthorizationPolicies — Istio's
// authz.AuthorizationPoliciesAnalyzer (pkg/config/analysis/analyzers/authz/authorizationpolicies.go):
// - a root-namespace (mesh-wide) policy with a selector must match some in-mesh pod anywhere; one without a
//   selector is never reported;
// - a namespace policy without a selector needs an in-mesh pod in its namespace (reported with no labels), one
//   with a selector a matching in-mesh pod there;
// - every `from.source.namespaces` / `notNamespaces` entry (exact, `prefix*`, `*suffix`, `*`) must name a
//   namespace → IST0101 "namespace".
// meshscope additions, marked as such: the namespace inside a `principals` / `notPrincipals` entry of the
// SPIFFE form `TRUST_DOMAIN/ns/NS/sa/SA` is checked the same way (Istio does not check principals). Known
// namespaces are those declared or holding any object (files rarely declare Namespace objects).
import type { IstioConfig, MeshSnapshot } from '../model/mesh';
import type { Problem } from '../model/problem';
import { report } from './messages';
import type { Analyzer } from './types';

/** authorizationpolicies.go namespaceMatch. */
export function namespaceMatch(ns: string, exp: string): boolean {
  if (exp === '*') return true;
  if (exp.startsWith('*')) return ns.endsWith(exp.slice(1));
  if (exp.endsWith('*')) return ns.startsWith(exp.slice(0, -1));
  return ns.toLowerCase() === exp.toLowerCase();
}

const selectorString = (labels: Readonly<Record<string, string>>): string =>
  Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');

const matches = (sel: Readonly<Record<string, string>>, labels: Readonly<Record<string, string>>) =>
  Object.entries(sel).every(([k, v]) => labels[k] === v);

function noMatchingWorkloads(ap: IstioConfig<'AuthorizationPolicy'>, s: MeshSnapshot, root: string): Problem | undefined {
  const inMesh = s.pods.filter((p) => p.proxy !== 'none');
  const sel = ap.spec.selector?.matchLabels;
  // targetRefs policies attach to Gateways / Services, not to pods selected by labels.
  if (ap.spec.targetRef || ap.spec.targetRefs?.length) return undefined;
  if (ap.meta.namespace === root) {
    if (ap.spec.selector && !inMesh.some((p) => matches(sel ?? {}, p.labels)))
      return report('NoMatchingWorkloadsFound', ap, 'spec.selector', selectorString(sel ?? {}));
    return undefined;
  }
  const local = inMesh.filter((p) => p.namespace === ap.meta.namespace);
  if (!ap.spec.selector) return local.length === 0 ? report('NoMatchingWorkloadsFound', ap, undefined, '') : undefined;
  return local.some((p) => matches(sel ?? {}, p.labels))
    ? undefined
    : report('NoMatchingWorkloadsFound', ap, 'spec.selector', selectorString(sel ?? {}));
}

const PRINCIPAL_NS = /^[^/]+\/ns\/([^/]+)\/sa\/[^/]+$/;

export const authorizationPoliciesAnalyzer: Analyzer = {
  meta: {
    name: 'auth.AuthorizationPoliciesAnalyzer',
    description: 'Checks the validity of authorization policies',
    inputs: ['AuthorizationPolicy', 'Namespace', 'Pod'],
  },
  analyze(s, ctx) {
    const out: Problem[] = [];
    const known = [...s.namespaces.keys()];
    const exists = (exp: string) => known.some((ns) => namespaceMatch(ns, exp));
    for (const ap of s.authorizationPolicies) {
      const w = noMatchingWorkloads(ap, s, ctx.options.rootNamespace);
      if (w) out.push(w);
      (ap.spec.rules ?? []).forEach((rule, i) => {
        (rule.from ?? []).forEach((from, j) => {
          const src = from.source ?? {};
          for (const field of ['namespaces', 'notNamespaces'] as const)
            (src[field] ?? []).forEach((ns, k) => {
              if (!exists(ns))
                out.push(report('ReferencedResourceNotFound', ap, `spec.rules[${i}].from[${j}].source.${field}[${k}]`, 'namespace', ns));
            });
          // meshscope addition: the namespace of a SPIFFE-form principal.
          for (const field of ['principals', 'notPrincipals'] as const)
            (src[field] ?? []).forEach((pr, k) => {
              const ns = PRINCIPAL_NS.exec(pr.replace(/^spiffe:\/\//, ''))?.[1];
              if (ns && !ns.includes('*') && !exists(ns))
                out.push(report('ReferencedResourceNotFound', ap, `spec.rules[${i}].from[${j}].source.${field}[${k}]`, 'namespace', ns));
            });
        });
      });
    }
    return out;
  },
};
