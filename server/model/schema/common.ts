// Shared zod building blocks for Istio specs (istio/api networking/v1alpha3/*.proto, proto3 JSON names)
// and the helpers that turn zod issues into located LoadErrors.
import { z } from 'zod';

/** Go/proto duration as Istio accepts it: `10s`, `1.5s`, `100ms`, `1h2m`. */
export const DURATION_RE = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
export const duration = z.string().regex(DURATION_RE, { message: 'invalid duration (expected e.g. "10s", "100ms")' });

export const int = z.number().int();
export const uint = z.number().int().min(0);
/** uint64 in proto3 JSON: a number or a decimal string (the CRD schema uses int-or-string). */
export const uint64 = z.union([z.number().int().min(0), z.string().regex(/^\d+$/).transform(Number)]);
export const stringMap = z.record(z.string(), z.string());

/** istio.networking.v1alpha3.StringMatch: a oneof of exact / prefix / regex. */
export const stringMatch = z.strictObject({
  exact: z.string().optional(),
  prefix: z.string().optional(),
  regex: z.string().optional(),
});

export const percent = z.strictObject({ value: z.number().optional() });

export const portSelector = z.strictObject({ number: uint.optional() });

export const destination = z.strictObject({
  host: z.string(),
  subset: z.string().optional(),
  port: portSelector.optional(),
});

export const headerOperations = z.strictObject({
  set: stringMap.optional(),
  add: stringMap.optional(),
  remove: z.array(z.string()).optional(),
});
export const headers = z.strictObject({
  request: headerOperations.optional(),
  response: headerOperations.optional(),
});

export const workloadSelectorLabels = z.strictObject({ labels: stringMap.optional() });

/** istio.networking.v1alpha3.ServicePort / Port (Gateway, ServiceEntry, Sidecar). */
export const servicePort = z.strictObject({
  number: uint,
  protocol: z.string().optional(),
  name: z.string(),
  targetPort: uint.optional(),
});

/** Formats a zod path as `spec.http[0].route[0].weight`. */
export function formatPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else {
      const s = String(p);
      out += /^[A-Za-z_$][\w$-]*$/.test(s) ? (out ? `.${s}` : s) : `[${JSON.stringify(s)}]`;
    }
  }
  return out;
}

export interface PathIssue {
  path: string;
  message: string;
}

/** Turns a zod error into one issue per problem, each with its exact field path. */
export function zodIssues(error: z.ZodError, base: string): PathIssue[] {
  const out: PathIssue[] = [];
  for (const issue of error.issues) collect(issue as z.core.$ZodIssue, base, [], out);
  return out;
}

function collect(issue: z.core.$ZodIssue, base: string, prefix: readonly PropertyKey[], out: PathIssue[]): void {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    for (const key of issue.keys) out.push({ path: formatPath(base, [...path, key]), message: `unknown field "${key}"` });
    return;
  }
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    // Report the branch that got furthest (fewest issues) to keep messages precise.
    const best = [...issue.errors].sort((a, b) => a.length - b.length)[0] ?? [];
    for (const sub of best) collect(sub, base, path, out);
    return;
  }
  out.push({ path: formatPath(base, path), message: describe(issue) });
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    const got = (issue as { input?: unknown }).input;
    const gotType = got === undefined ? 'nothing' : Array.isArray(got) ? 'array' : got === null ? 'null' : typeof got;
    if (got === undefined) return `required field missing (expected ${issue.expected})`;
    return `expected ${issue.expected}, got ${gotType} ${gotType === 'string' || gotType === 'number' || gotType === 'boolean' ? JSON.stringify(got) : ''}`.trim();
  }
  return issue.message;
}

/**
 * Removes `null` object members recursively: `null` is "unset" (YAML `key:` with no value yields null). The
 * Kubernetes API server does the same: a JSON null decodes to the Go zero value (built-in kinds), and
 * structural-schema pruning drops null fields that are not `nullable` (CRDs, apiextensions "Defaulting and
 * Nullable"). List items are kept as they are (a null item is a located error, as it is for the API server).
 * Returns `value` itself when it holds no null member (no copy for the common case).
 */
export function stripNulls<T>(value: T): T {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v, i) => {
      const s = stripNulls(v);
      if (s !== v) (out ??= value.slice())[i] = s;
    });
    return (out ?? value) as T;
  }
  if (value && typeof value === 'object') {
    let out: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const s = v === null ? undefined : stripNulls(v);
      if (s === v) continue;
      out ??= { ...(value as Record<string, unknown>) };
      if (s === undefined) delete out[k];
      else out[k] = s;
    }
    return (out ?? value) as T;
  }
  return value;
}

/** Appends every item of `lists` to `to` without spreading them as call arguments (a spread of 100k+ items overflows the stack). */
export function pushAll<T>(to: T[], ...lists: readonly (readonly T[])[]): void {
  for (const list of lists) for (const x of list) to.push(x);
}
