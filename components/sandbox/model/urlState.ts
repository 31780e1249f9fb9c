// The sandbox's state in the URL, so a link reproduces it: the draft YAML and the request checks,
// compressed with lz-string (URI-safe), plus the chosen proxy and document in plain parameters.
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import type { RequestCheck } from '@/server/sandbox/types';

export interface SandboxUrlState {
  draft: string;
  checks: RequestCheck[];
  /** The proxy whose diff and config are shown. */
  proxy?: string;
  /** The draft document the form helpers edit. */
  doc?: number;
}

/** Drafts past this size are not put in the URL (browsers and proxies cut long URLs). */
export const MAX_URL_DRAFT = 60_000;

export function encodeDraft(text: string): string {
  return compressToEncodedURIComponent(text);
}

export function decodeDraft(param: string | null | undefined): string | undefined {
  if (!param) return undefined;
  try {
    const t = decompressFromEncodedURIComponent(param);
    return typeof t === 'string' && t.length > 0 ? t : undefined;
  } catch {
    return undefined;
  }
}

function decodeChecks(param: string | null): RequestCheck[] {
  const t = decodeDraft(param);
  if (!t) return [];
  try {
    const v = JSON.parse(t) as unknown;
    return Array.isArray(v)
      ? v.filter(
          (c): c is RequestCheck =>
            !!c && typeof c === 'object' && typeof (c as RequestCheck).proxy === 'string' && !!(c as RequestCheck).request,
        )
      : [];
  } catch {
    return [];
  }
}

export function stateFromParams(p: URLSearchParams): SandboxUrlState {
  const s: SandboxUrlState = { draft: decodeDraft(p.get('d')) ?? '', checks: decodeChecks(p.get('c')) };
  const proxy = p.get('proxy');
  const doc = Number(p.get('doc'));
  if (proxy) s.proxy = proxy;
  if (p.get('doc') !== null && Number.isInteger(doc) && doc >= 0) s.doc = doc;
  return s;
}

/** The query string for a state; other parameters (e.g. `load`) are dropped. */
export function stateToParams(s: SandboxUrlState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.draft && s.draft.length <= MAX_URL_DRAFT) p.set('d', encodeDraft(s.draft));
  if (s.checks.length) p.set('c', encodeDraft(JSON.stringify(s.checks)));
  if (s.proxy) p.set('proxy', s.proxy);
  if (s.doc) p.set('doc', String(s.doc));
  return p;
}

/** A link that opens the sandbox with this YAML as the draft. */
export const sandboxHrefFor = (yaml: string) => `/sandbox?d=${encodeDraft(yaml)}`;
/** A link that opens the sandbox and loads a live object by its provenance path (`/apis/…/virtual-service/NAME`). */
export const sandboxLoadHref = (configPath: string) => `/sandbox?load=${encodeURIComponent(configPath)}`;

/** The provenance path of a live Istio object, as translation writes it (filter_metadata.istio.config). */
export function configPathFor(kind: string, namespace: string, name: string): string {
  const plural = kind.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return `/apis/networking.istio.io/v1/namespaces/${namespace}/${plural}/${name}`;
}
