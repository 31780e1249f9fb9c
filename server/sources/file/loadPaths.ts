// Files and directories → RawInputs: multi-document YAML and JSON, `kind: List` expansion, default namespace,
// `-` for stdin. Syntax errors become located LoadErrors; the other documents still load.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { LoadError } from '../../model/mesh';
import { CLUSTER_SCOPED_KINDS } from '../../model/schema/kinds';
import type { RawInput, RawObject } from '../types';

const EXTENSIONS = /\.(ya?ml|json)$/i;
export const STDIN_FILE = '<stdin>';

export interface LoadResult {
  inputs: RawInput[];
  errors: LoadError[];
}

/** Every loadable file under `dir`, recursively, sorted by path (dot-directories are skipped). */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.')) walk(p);
      } else if ((e.isFile() || e.isSymbolicLink()) && EXTENSIONS.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Expands the given paths into the ordered list of files to read (`-` stays as stdin). */
export function expandPaths(paths: readonly string[]): { files: string[]; errors: LoadError[] } {
  const files: string[] = [];
  const errors: LoadError[] = [];
  for (const p of paths) {
    if (p === '-') {
      files.push('-');
      continue;
    }
    try {
      if (statSync(p).isDirectory()) files.push(...listFiles(p));
      else files.push(p);
    } catch (e) {
      errors.push({ severity: 'error', message: `cannot read ${p}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, file: p });
    }
  }
  return { files, errors };
}

export function loadPaths(paths: string[], opts?: { namespace?: string; stdin?: string }): LoadResult {
  const { files, errors } = expandPaths(paths);
  const inputs: RawInput[] = [];
  for (const f of files) {
    if (f === '-') {
      const r = parseText(opts?.stdin ?? '', STDIN_FILE, opts?.namespace);
      inputs.push(...r.inputs);
      errors.push(...r.errors);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch (e) {
      errors.push({ severity: 'error', message: `cannot read ${f}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, file: f });
      continue;
    }
    const r = parseText(text, f, opts?.namespace);
    inputs.push(...r.inputs);
    errors.push(...r.errors);
  }
  return { inputs, errors };
}

/** Parses one file's text (YAML stream or JSON) into raw objects with origins. */
export function parseText(text: string, file: string, namespace?: string): LoadResult {
  const inputs: RawInput[] = [];
  const errors: LoadError[] = [];
  let docs;
  try {
    docs = parseAllDocuments(text, { prettyErrors: true, uniqueKeys: true });
  } catch (e) {
    return { inputs, errors: [{ severity: 'error', message: `cannot parse: ${String(e)}`, file }] };
  }
  const list = Array.isArray(docs) ? docs : [];
  list.forEach((doc, index) => {
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const pos = err.linePos?.[0];
        const message = (err.message.split('\n')[0] ?? err.message).replace(/ at line \d+, column \d+:?$/, '');
        const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
        errors.push({ severity: 'error', message: `YAML syntax error${where}: ${message}`, file, doc: index });
      }
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      errors.push({ severity: 'error', message: `cannot read document: ${String(e)}`, file, doc: index });
      return;
    }
    if (value === null || value === undefined) return; // empty document
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) collect(item, file, index, namespace, inputs, errors);
  });
  return { inputs, errors };
}

function collect(value: unknown, file: string, doc: number, namespace: string | undefined, inputs: RawInput[], errors: LoadError[]): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push({
      severity: 'error',
      message: 'document is not a Kubernetes object (expected a mapping with apiVersion and kind)',
      file,
      doc,
    });
    return;
  }
  const obj = value as RawObject;
  if (typeof obj.kind === 'string' && (obj.kind === 'List' || obj.kind.endsWith('List')) && Array.isArray(obj.items)) {
    for (const item of obj.items) collect(item, file, doc, namespace, inputs, errors);
    return;
  }
  inputs.push({ object: withNamespace(obj, namespace), origin: { source: 'file', file, doc } });
}

export function withNamespace(obj: RawObject, namespace: string | undefined): RawObject {
  if (typeof obj.kind === 'string' && CLUSTER_SCOPED_KINDS.has(obj.kind)) return obj;
  const md = obj.metadata;
  if (md !== undefined && (typeof md !== 'object' || md === null || Array.isArray(md))) return obj; // reported by the parser
  const meta = (md ?? {}) as Record<string, unknown>;
  if (typeof meta.namespace === 'string' && meta.namespace !== '') return obj;
  return { ...obj, metadata: { ...meta, namespace: namespace ?? 'default' } };
}
