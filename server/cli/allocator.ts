// The memory allocator of the server process `meshscope serve` starts (docs/perf/issue24-allocator.md, "The
// allocator"). glibc's malloc keeps the native memory of a connect wave (HTTP/2 sessions, their buffers)
// mapped after the clients leave: it returns memory to the system only from the top of its heap. jemalloc
// purges freed pages on its own (decay) and keeps per-client memory lower, so the server runs with it when
// the library is at hand: Debian's `libjemalloc2` (the image installs it, Dockerfile), a path in
// MESHSCOPE_JEMALLOC, or the copy `node scripts/jemalloc.mjs` unpacks into the cache directory. It is loaded
// with LD_PRELOAD into the server child only (the CLI process that supervises it is short of nothing).
// MESHSCOPE_ALLOCATOR=system opts out; an absent library is never an error, the start-up line says which
// allocator runs and why.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const JEMALLOC_LIB = 'libjemalloc.so.2';
/**
 * jemalloc's options for the server, unless MALLOC_CONF is set: a background thread purges freed pages on
 * jemalloc's own decay (10 s) while the server is idle, so RSS goes back after a connect wave even when
 * nothing allocates any more (without it jemalloc purges only on allocation). Measured against a shorter
 * decay (1 s, muzzy 0, 2 arenas: lower RSS right after a wave, more CPU) in docs/perf/issue24-allocator.md.
 */
export const JEMALLOC_CONF = 'background_thread:true';

/**
 * V8 flags for the server child:
 * - semi-spaces (V8's young generation is two of them) up to 64 MiB instead of V8's 16 MiB on 64-bit. A connect or
 *   reconnect wave of 1,000 streams allocates hundreds of MiB of short-lived objects (requests, responses, frames);
 *   with 16 MiB semi-spaces that was 43–46 scavenges per first-config wave, with 64 MiB 18–20, and less server CPU in
 *   every paired run of both waves, the RSS rows held (docs/perf/issue24-waves.md, session 12);
 * - V8's worker pool sized to the machine: `--v8-pool-size=0` lets node choose (its platform takes the available
 *   parallelism less one, at least one thread; node's default is a fixed four). The workers run V8's optimizing
 *   compiles and the parallel and concurrent parts of its GC: 40 % of the server's CPU in a first-config wave. Four of
 *   them on two cores fought the main thread (and the peers' processes) for the CPU: with one, the N = 1,000 first
 *   wave's server CPU and wall time were lower in 5 of 6 interleaved pairs (docs/perf/issue24-waves.md, session 14).
 * Each is left out when NODE_OPTIONS already sets it (the operator's choice is kept).
 */
export const SERVER_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=64', '--v8-pool-size=0'];

/** Which NODE_OPTIONS flags stand for each of SERVER_HEAP_FLAGS (same order). */
const OPERATOR_SET: readonly RegExp[] = [/--(?:max|min)[-_]semi[-_]space[-_]size\b/, /--v8[-_]pool[-_]size\b/];

/** The node flags of `meshscope serve`'s server child that size its heap and V8's threads (less what NODE_OPTIONS sets). */
export function serverHeapFlags(env: Readonly<Record<string, string | undefined>>): string[] {
  const opts = env.NODE_OPTIONS ?? '';
  return SERVER_HEAP_FLAGS.filter((_, i) => !OPERATOR_SET[i]!.test(opts));
}

export interface AllocatorEnvInput {
  env: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  arch?: string;
  home?: string;
  exists?: (path: string) => boolean;
}

export interface AllocatorChoice {
  /** Variables to add to the server child's environment (none when it runs the system allocator). */
  env: Record<string, string>;
  /** What runs, for the start-up line: `jemalloc` or `system malloc, why`. */
  text: string;
  /** The library preloaded, when jemalloc runs. */
  library?: string;
}

const TRIPLES: Record<string, string> = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' };

/** Where the unpacked Debian package lives (scripts/jemalloc.mjs): MESHSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/meshscope, else ~/.cache/meshscope. */
export function jemallocCacheDir(env: AllocatorEnvInput['env'], home = homedir()): string {
  const base = env.MESHSCOPE_CACHE_DIR || join(env.XDG_CACHE_HOME || join(home, '.cache'), 'meshscope');
  return resolve(base, 'jemalloc');
}

/** The places libjemalloc.so.2 is looked for, in order (Debian's multiarch directory first). */
export function jemallocCandidates(input: AllocatorEnvInput): string[] {
  const triple = TRIPLES[input.arch ?? process.arch];
  const system = [
    ...(triple ? [`/usr/lib/${triple}/${JEMALLOC_LIB}`] : []),
    `/usr/local/lib/${JEMALLOC_LIB}`,
    `/usr/lib64/${JEMALLOC_LIB}`,
    `/usr/lib/${JEMALLOC_LIB}`,
  ];
  const cache = jemallocCacheDir(input.env, input.home);
  return [...system, ...(triple ? [join(cache, 'usr', 'lib', triple, JEMALLOC_LIB)] : [])];
}

/** Which allocator the server child runs with, and the environment that makes it so. */
export function chooseAllocator(input: AllocatorEnvInput): AllocatorChoice {
  const { env } = input;
  const exists = input.exists ?? existsSync;
  const preload = env.LD_PRELOAD ?? '';
  const loaded = preload.split(/[\s:]+/).find((p) => p.endsWith(JEMALLOC_LIB) || /libjemalloc\.so/.test(p));
  // Already preloaded (the image's ENV LD_PRELOAD): kept as it is, with the server's options unless MALLOC_CONF says otherwise.
  if (loaded) return { env: { MALLOC_CONF: env.MALLOC_CONF ?? JEMALLOC_CONF }, text: 'jemalloc, preloaded', library: loaded };
  const wanted = (env.MESHSCOPE_ALLOCATOR ?? '').trim().toLowerCase();
  if (wanted === 'system' || wanted === 'glibc' || wanted === 'malloc')
    return { env: {}, text: 'system malloc, MESHSCOPE_ALLOCATOR=system' };
  if ((input.platform ?? process.platform) !== 'linux') return { env: {}, text: 'system malloc' };
  const given = env.MESHSCOPE_JEMALLOC?.trim();
  const lib = given ? (exists(resolve(given)) ? resolve(given) : undefined) : jemallocCandidates(input).find((p) => exists(p));
  if (!lib)
    return {
      env: {},
      text: given
        ? `system malloc, MESHSCOPE_JEMALLOC=${given} does not exist`
        : `system malloc, no ${JEMALLOC_LIB} (apt-get install libjemalloc2)`,
    };
  return {
    env: { LD_PRELOAD: preload ? `${lib} ${preload}` : lib, MALLOC_CONF: env.MALLOC_CONF ?? JEMALLOC_CONF },
    text: 'jemalloc',
    library: lib,
  };
}
