// Files and directories → RawInputs: multi-document YAML and JSON, `kind: List` expansion, default namespace,
// `-` for stdin. Syntax errors become located LoadErrors; the other documents still load.
// Directory walks follow symlinks to files and directories; a symlink loop or an unreadable path is a
// located error, and the rest of the tree still loads.
import { type Dirent, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadError } from '../../model/mesh';
import type { RawInput } from '../types';
import type { PlainYamlReader } from './parseCache';
import { DEFAULT_FILE_LIMITS, type FileLimits, type LoadResult, parseText } from './parseFile';

export { parseText, type LoadResult, withNamespace } from './parseFile';

const EXTENSIONS = /\.(ya?ml|json)$/i;
export const STDIN_FILE = '<stdin>';

const code = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? String(e);

/** Every loadable file under `dir`, recursively, sorted by path (dot-entries are skipped), and the problems met. */
export function walkDir(dir: string): { files: string[]; errors: LoadError[]; dirs: string[] } {
  const files: string[] = [];
  const errors: LoadError[] = [];
  /** The directories walked (each real directory once), for the file source's watchers. */
  const dirs: string[] = [];
  const seen = new Set<string>();
  const walk = (d: string) => {
    let real: string;
    try {
      real = realpathSync(d);
    } catch (e) {
      errors.push({ severity: 'error', message: `cannot read directory ${d}: ${code(e)}`, file: d });
      return;
    }
    if (seen.has(real)) {
      errors.push({ severity: 'error', message: `symlink loop: ${d} leads back to ${real}, which is already walked (skipped)`, file: d });
      return;
    }
    seen.add(real);
    dirs.push(d);
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (e) {
      errors.push({ severity: 'error', message: `cannot read directory ${d}: ${code(e)}`, file: d });
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      let isDir = e.isDirectory();
      if (e.isSymbolicLink()) {
        try {
          isDir = statSync(p).isDirectory();
        } catch (err) {
          const c = code(err);
          const why = c === 'ELOOP' ? 'symlink loop' : c === 'ENOENT' ? 'dangling symlink' : c;
          if (EXTENSIONS.test(e.name) || c === 'ELOOP') errors.push({ severity: 'error', message: `cannot read ${p}: ${why}`, file: p });
          continue;
        }
      }
      if (isDir) walk(p);
      else if ((e.isFile() || e.isSymbolicLink()) && EXTENSIONS.test(e.name)) files.push(p);
    }
  };
  walk(dir);
  files.sort();
  return { files, errors, dirs };
}

/** Every loadable file under `dir`, recursively, sorted by path. */
export function listFiles(dir: string): string[] {
  return walkDir(dir).files;
}

/** Expands the given paths into the ordered list of files to read (`-` stays as stdin). */
export function expandPaths(paths: readonly string[]): { files: string[]; errors: LoadError[]; dirs: string[] } {
  const files: string[] = [];
  const errors: LoadError[] = [];
  const dirs: string[] = [];
  for (const p of paths) {
    if (p === '-') {
      files.push('-');
      continue;
    }
    try {
      if (statSync(p).isDirectory()) {
        const w = walkDir(p);
        for (const f of w.files) files.push(f);
        for (const e of w.errors) errors.push(e);
        for (const d of w.dirs) dirs.push(d);
      } else files.push(p);
    } catch (e) {
      errors.push({ severity: 'error', message: `cannot read ${p}: ${code(e)}`, file: p });
    }
  }
  return { files, errors, dirs };
}

/** A located error when `size` is over the per-file limit. */
export function sizeError(file: string, size: number, limits: FileLimits): LoadError | undefined {
  if (size <= limits.maxFileBytes) return undefined;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return {
    severity: 'error',
    message: `file too large: ${mib(size)}, over the limit of ${mib(limits.maxFileBytes)} per file; not loaded`,
    file,
  };
}

/** How a file's text becomes its LoadResult when the caller keeps results (`load` parses it). */
export type ResultReader = (file: string, text: string, namespace: string | undefined, load: () => LoadResult) => LoadResult;

export function loadPaths(
  paths: string[],
  opts?: { namespace?: string; stdin?: string; limits?: FileLimits; readPlain?: PlainYamlReader; readResult?: ResultReader },
): LoadResult {
  const limits = opts?.limits ?? DEFAULT_FILE_LIMITS;
  const { files, errors } = expandPaths(paths);
  const inputs: RawInput[] = [];
  const add = (r: LoadResult) => {
    for (const i of r.inputs) inputs.push(i);
    for (const e of r.errors) errors.push(e);
  };
  for (const f of files) {
    if (f === '-') {
      add(parseText(opts?.stdin ?? '', STDIN_FILE, opts?.namespace, limits));
      continue;
    }
    let text: string;
    try {
      const tooBig = sizeError(f, statSync(f).size, limits);
      if (tooBig) {
        errors.push(tooBig);
        continue;
      }
      text = readFileSync(f, 'utf8');
    } catch (e) {
      errors.push({ severity: 'error', message: `cannot read ${f}: ${code(e)}`, file: f });
      continue;
    }
    const load = () => parseText(text, f, opts?.namespace, limits, opts?.readPlain);
    add(opts?.readResult ? opts.readResult(f, text, opts.namespace, load) : load());
  }
  return { inputs, errors };
}
