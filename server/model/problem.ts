// The one located-problem type: input load/validation errors, translator errors and analyzer findings are all
// a Problem (severity, message, and where: file, document, object, YAML path; analyzer findings add Istio's
// message code). Never thrown: collected and shown. Browser-safe, types and pure mapping only.
//
// Two JSON shapes are contracts (DESIGN.md §3) and stay as they are:
// - /api/errors, /api/proxies/:id … `errors`: a Problem as it is (`severity: 'error' | 'warning'`);
// - `meshscope analyze -o json` and /api/analyze: a Finding (`level: 'Error' | …` as Istio's analysis
//   messages print it, location under `origin`), mapped at that edge by toFinding / fromFinding.

/** Kinds of input an object can come from. */
export type InputSource = 'file' | 'kube' | 'sandbox' | 'demo';

export type Severity = 'error' | 'warning' | 'info';

export interface Problem {
  severity: Severity;
  /** Istio's analysis message code (IST0101, …) for analyzer findings; absent for load and translation errors. */
  code?: string;
  message: string;
  /** `Kind namespace/name` when known. */
  object?: string;
  /** YAML path inside the object, e.g. `spec.http[0].route[0].weight`. */
  path?: string;
  /** File path (file source) or API path (kube source). */
  file?: string;
  /** 0-based index of the YAML document inside the file. */
  doc?: number;
  /** 1-based line in `file` of the field (`path`), or of the object when there is no path. */
  line?: number;
  /** What kind of input `file` names, when it is not a file on disk. */
  source?: InputSource;
  /**
   * Set on the mark of an object whose current input is unusable: its last good version (loaded at this
   * RFC 3339 time) is served instead ("stale: last good from <time>").
   */
  staleSince?: string;
  /**
   * Set on the one note per Istio object that fails Istio's validation and is therefore not translated
   * (istiod's webhook would reject it), though analyzers still check it (server/model/parse/rejected).
   */
  notTranslated?: boolean;
}

/** Istio's analysis levels (pkg/config/analysis/diag/level.go, msg/messages.yaml). */
export type Level = 'Error' | 'Warning' | 'Info';

/** An analyzer finding as `meshscope analyze -o json` and /api/analyze print it. */
export interface Finding {
  /** Istio's code, e.g. IST0101. */
  code: string;
  level: Level;
  message: string;
  /** `Kind namespace/name` */
  object: string;
  /** YAML path inside the object, e.g. `spec.http[0].route[1].destination.host`. */
  path?: string;
  /** Where the object was read from (file + document index). */
  origin?: { source: InputSource; file?: string; doc?: number; line?: number };
}

const LEVEL: Record<Severity, Level> = { error: 'Error', warning: 'Warning', info: 'Info' };
const SEVERITY: Record<Level, Severity> = { Error: 'error', Warning: 'warning', Info: 'info' };

export const levelOf = (s: Severity): Level => LEVEL[s];
export const severityOf = (l: Level): Severity => SEVERITY[l];

/** A Problem in the analyze contract's shape. */
export function toFinding(p: Problem): Finding {
  const f: Finding = { code: p.code ?? '', level: LEVEL[p.severity], message: p.message, object: p.object ?? '' };
  if (p.path !== undefined) f.path = p.path;
  if (p.file !== undefined || p.doc !== undefined) {
    f.origin = { source: p.source ?? 'file' };
    if (p.file !== undefined) f.origin.file = p.file;
    if (p.doc !== undefined) f.origin.doc = p.doc;
    if (p.line !== undefined) f.origin.line = p.line;
  }
  return f;
}

/** A Finding read back (from /api/analyze) as a Problem. */
export function fromFinding(f: Finding): Problem {
  const p: Problem = { severity: SEVERITY[f.level], code: f.code, message: f.message, object: f.object };
  if (f.path !== undefined) p.path = f.path;
  if (f.origin?.file !== undefined) p.file = f.origin.file;
  if (f.origin?.doc !== undefined) p.doc = f.origin.doc;
  if (f.origin?.line !== undefined) p.line = f.origin.line;
  if (f.origin) p.source = f.origin.source;
  return p;
}
