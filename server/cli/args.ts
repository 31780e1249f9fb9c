// A small, strict argv parser for meshscope's commands (DESIGN.md §3). No dependencies.
// Supports `--flag value`, `--flag=value`, repeated flags, `-o json`, `-H 'k: v'` and boolean flags.

export interface FlagSpec {
  /** Long name without dashes. */
  name: string;
  /** Short alias without dash, e.g. `o`. */
  short?: string;
  kind: 'string' | 'boolean';
  /** May appear more than once (values collected in order). */
  repeat?: boolean;
}

export interface ParsedArgs {
  /** Last value of each string flag, or `true` for booleans. */
  flags: Record<string, string | true>;
  /** Every value of repeatable flags, in order. */
  lists: Record<string, string[]>;
  positionals: string[];
}

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short as string, s]));
  const out: ParsedArgs = { flags: {}, lists: {}, positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
      spec = byLong.get(name);
      if (!spec) throw new UsageError(`unknown flag --${name}`);
    } else if (arg.startsWith('-') && arg.length > 1) {
      spec = byShort.get(arg.slice(1));
      if (!spec) throw new UsageError(`unknown flag ${arg}`);
    } else {
      out.positionals.push(arg);
      continue;
    }
    if (spec.kind === 'boolean') {
      if (inline !== undefined && inline !== 'true' && inline !== 'false') throw new UsageError(`--${spec.name} takes no value`);
      if (inline !== 'false') out.flags[spec.name] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      // `-` alone is a value (stdin); anything else starting with `-` is the next flag.
      if (next === undefined || (next.startsWith('-') && next !== '-')) throw new UsageError(`--${spec.name} needs a value`);
      value = next;
      i++;
    }
    out.flags[spec.name] = value;
    if (spec.repeat) (out.lists[spec.name] ??= []).push(value);
  }
  return out;
}

export const str = (a: ParsedArgs, name: string): string | undefined => {
  const v = a.flags[name];
  return typeof v === 'string' ? v : undefined;
};

export const list = (a: ParsedArgs, name: string): string[] => a.lists[name] ?? [];

/** A TCP port flag (0 allowed: pick a free one). */
export function portFlag(a: ParsedArgs, name: string, dflt: number): number {
  const v = str(a, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--${name} must be a port number (0-65535), got "${v}"`);
  return n;
}

export function oneOf<T extends string>(a: ParsedArgs, name: string, allowed: readonly T[], dflt: T): T {
  const v = str(a, name);
  if (v === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${allowed.join('|')}, got "${v}"`);
  return v as T;
}
