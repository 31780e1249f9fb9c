// Shared bits of the one-shot commands: the --config/--namespace flags, loading, stderr reporting.
import type { Writable } from 'node:stream';
import { formatError } from '../format';
import { hasUsableInput, loadMesh, type LoadedMesh } from '../load';
import type { FlagSpec, ParsedArgs } from '../args';
import { list, str, UsageError } from '../args';

export interface Io {
  stdout: Writable;
  stderr: Writable;
  /** stdin text, read lazily (only when a path is `-`). */
  stdin?: () => Promise<string>;
}

export const CONFIG_FLAGS: readonly FlagSpec[] = [
  { name: 'config', short: 'c', kind: 'string', repeat: true },
  { name: 'namespace', short: 'n', kind: 'string' },
];

/** Loads --config inputs and prints every located error to stderr; undefined when nothing usable loaded. */
export async function loadFromArgs(args: ParsedArgs, io: Io): Promise<LoadedMesh | undefined> {
  const paths = list(args, 'config');
  if (paths.length === 0) throw new UsageError('--config PATH is required (files, directories, or - for stdin)');
  const ns = str(args, 'namespace');
  const loaded = await loadMesh(paths, { ...(ns ? { namespace: ns } : {}), ...(io.stdin ? { stdin: io.stdin } : {}) });
  reportErrors(loaded.errors, io);
  if (!hasUsableInput(loaded.snapshot)) {
    io.stderr.write('error: nothing usable was loaded from the given --config paths\n');
    return undefined;
  }
  return loaded;
}

export function reportErrors(errors: LoadedMesh['errors'], io: Io): void {
  for (const e of errors) io.stderr.write(formatError(e) + '\n');
}

export const writeJson = (io: Io, v: unknown): void => {
  io.stdout.write(JSON.stringify(v, null, 2) + '\n');
};
