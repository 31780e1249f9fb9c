// Shared bits of the one-shot commands: the --config/--namespace flags, loading, stderr reporting.
import type { Writable } from 'node:stream';
import { readFile, stat } from 'node:fs/promises';
import { formatError } from '../format';
import type { MeshConfigOverride } from '../../model/parse/meshSource';
import { MAX_MESH_CONFIG_BYTES } from '../../sources/file/meshConfigFile';
import { hasUsableInput, loadMesh, type LoadedMesh } from '../load';
import type { FlagSpec, ParsedArgs } from '../args';
import type { EarlyParse } from '../earlyParse';
import { list, str, UsageError } from '../args';

export interface Io {
  stdout: Writable;
  stderr: Writable;
  /** stdin text, read lazily (only when a path is `-`). */
  stdin?: () => Promise<string>;
  /** The parse worker main() started for the --config files (../earlyParse). */
  early?: EarlyParse;
}

export const CONFIG_FLAGS: readonly FlagSpec[] = [
  { name: 'config', short: 'c', kind: 'string', repeat: true },
  { name: 'namespace', short: 'n', kind: 'string' },
  { name: 'mesh-config', kind: 'string' },
  { name: 'bug-report', kind: 'string' },
  // istiod runs with the ambient profile (PILOT_ENABLE_AMBIENT=true): the snapshot carries the ambient index.
  { name: 'ambient', kind: 'boolean' },
];

export interface LoadOptions {
  /** The command hands `inputs` on (diff, check): the raw objects whole (server/cli/load.ts). */
  rawInputs?: boolean;
}

/** Loads --config inputs and prints every located error to stderr; undefined when nothing usable loaded. */
export async function loadFromArgs(args: ParsedArgs, io: Io, opts: LoadOptions = {}): Promise<LoadedMesh | undefined> {
  const loaded = await loadMeshFromArgs(args, io, opts);
  if (!loaded) return undefined;
  reportErrors(loaded.errors, io);
  if (!hasUsableInput(loaded.snapshot)) {
    io.stderr.write('error: nothing usable was loaded from the given --config paths\n');
    return undefined;
  }
  return loaded;
}

/**
 * `--config PATH…` and/or `--bug-report FILE|DIR` (an istioctl bug-report or must-gather, server/archive) →
 * the loaded mesh, unreported; undefined (the reason printed) when the archive cannot be used.
 */
export async function loadMeshFromArgs(args: ParsedArgs, io: Io, opts: LoadOptions = {}): Promise<LoadedMesh | undefined> {
  const paths = list(args, 'config');
  const bugReport = str(args, 'bug-report');
  if (paths.length === 0 && bugReport === undefined)
    throw new UsageError('--config PATH (files, directories, or - for stdin) or --bug-report FILE|DIR is required');
  const ns = str(args, 'namespace');
  const meshConfig = await readMeshConfigFlag(args);
  try {
    return await loadMesh(paths, {
      ...(ns ? { namespace: ns } : {}),
      ...(io.stdin ? { stdin: io.stdin } : {}),
      ...(meshConfig ? { meshConfig } : {}),
      ...(bugReport !== undefined ? { bugReport } : {}),
      ...(args.flags.ambient === true ? { ambient: true } : {}),
      ...(opts.rawInputs ? { rawInputs: true } : {}),
      ...(io.early ? { early: io.early } : {}),
    });
  } catch (e) {
    if ((e as Error).name !== 'ArchiveError') throw e;
    io.stderr.write(`error: --bug-report ${(e as Error).message}\n`);
    return undefined;
  }
}

/** `--mesh-config FILE`: its text (unreadable or too large → a usage error, exit 2). */
export async function readMeshConfigFlag(args: ParsedArgs): Promise<MeshConfigOverride | undefined> {
  const file = str(args, 'mesh-config');
  if (file === undefined) return undefined;
  try {
    const st = await stat(file);
    if (!st.isFile()) throw new Error('not a file');
    if (st.size > MAX_MESH_CONFIG_BYTES) throw new Error(`larger than ${MAX_MESH_CONFIG_BYTES} bytes`);
    return { file, text: await readFile(file, 'utf8') };
  } catch (e) {
    throw new UsageError(`--mesh-config ${file}: ${(e as Error).message}`);
  }
}

export function reportErrors(errors: LoadedMesh['errors'], io: Io): void {
  for (const e of errors) io.stderr.write(formatError(e) + '\n');
}

export const writeJson = (io: Io, v: unknown): void => {
  io.stdout.write(JSON.stringify(v, null, 2) + '\n');
};
