// Which allocator `meshscope serve` gives its server child (server/cli/allocator.ts): jemalloc through LD_PRELOAD
// when the library is at hand, never an error when it is not, an opt-out, and a preload already in place kept.
// The last test starts a real node process with the chosen environment and reads its own memory map: the
// dynamic loader, not this module, decides what a preload does (ld.so(8): LD_PRELOAD, space- or colon-separated).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../testing/paths';
import { chooseAllocator, JEMALLOC_CONF, jemallocCandidates, serverHeapFlags } from './allocator';

const DEBIAN = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const base = { platform: 'linux' as const, arch: 'x64', home: '/h/u' };
const only =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

describe('chooseAllocator', () => {
  it('preloads Debian libjemalloc2 when it is installed, with the server options', () => {
    const c = chooseAllocator({ ...base, env: {}, exists: only(DEBIAN) });
    expect(c.text).toBe('jemalloc');
    expect(c.library).toBe(DEBIAN);
    expect(c.env).toEqual({ LD_PRELOAD: DEBIAN, MALLOC_CONF: JEMALLOC_CONF });
  });

  it('keeps an existing LD_PRELOAD after jemalloc and the operator MALLOC_CONF', () => {
    const c = chooseAllocator({ ...base, env: { LD_PRELOAD: '/opt/x.so', MALLOC_CONF: 'narenas:1' }, exists: only(DEBIAN) });
    expect(c.env).toEqual({ LD_PRELOAD: `${DEBIAN} /opt/x.so`, MALLOC_CONF: 'narenas:1' });
  });

  it('runs the system malloc, and says why, when no library is found', () => {
    const c = chooseAllocator({ ...base, env: {}, exists: () => false });
    expect(c.env).toEqual({});
    expect(c.library).toBeUndefined();
    expect(c.text).toBe('system malloc, no libjemalloc.so.2 (apt-get install libjemalloc2)');
  });

  it('MESHSCOPE_ALLOCATOR=system opts out even when the library is there', () => {
    const c = chooseAllocator({ ...base, env: { MESHSCOPE_ALLOCATOR: 'system' }, exists: () => true });
    expect(c.env).toEqual({});
    expect(c.text).toBe('system malloc, MESHSCOPE_ALLOCATOR=system');
  });

  it('does not load jemalloc twice when it is already preloaded (the image sets LD_PRELOAD)', () => {
    const c = chooseAllocator({ ...base, env: { LD_PRELOAD: '/usr/local/lib/libjemalloc.so.2' }, exists: () => true });
    expect(c.text).toBe('jemalloc, preloaded');
    expect(c.env.LD_PRELOAD).toBeUndefined();
    expect(c.env.MALLOC_CONF).toBe(JEMALLOC_CONF);
    // …whatever MESHSCOPE_ALLOCATOR says: the process is already running on it.
    expect(chooseAllocator({ ...base, env: { LD_PRELOAD: '/x/libjemalloc.so.2', MESHSCOPE_ALLOCATOR: 'system' } }).text).toBe(
      'jemalloc, preloaded',
    );
  });

  it('MESHSCOPE_JEMALLOC names the library; a path that does not exist is said, not fatal', () => {
    expect(
      chooseAllocator({ ...base, env: { MESHSCOPE_JEMALLOC: '/opt/je/libjemalloc.so.2' }, exists: only('/opt/je/libjemalloc.so.2') }).env
        .LD_PRELOAD,
    ).toBe('/opt/je/libjemalloc.so.2');
    const missing = chooseAllocator({ ...base, env: { MESHSCOPE_JEMALLOC: '/nope.so' }, exists: only(DEBIAN) });
    expect(missing.env).toEqual({});
    expect(missing.text).toBe('system malloc, MESHSCOPE_JEMALLOC=/nope.so does not exist');
  });

  it('finds the unpacked package in the cache directory (scripts/jemalloc.mjs) and the arm64 multiarch path', () => {
    const cached = '/c/meshscope/jemalloc/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
    expect(chooseAllocator({ ...base, env: { XDG_CACHE_HOME: '/c' }, exists: only(cached) }).library).toBe(cached);
    expect(jemallocCandidates({ env: {}, arch: 'arm64', home: '/h' })[0]).toBe('/usr/lib/aarch64-linux-gnu/libjemalloc.so.2');
  });

  it('preloads nothing off Linux', () => {
    expect(chooseAllocator({ ...base, platform: 'darwin', env: {}, exists: () => true }).env).toEqual({});
  });
});

describe('the chosen environment in a real process', () => {
  it('maps libjemalloc into a node started with it when the library is present, and nothing otherwise', () => {
    const choice = chooseAllocator({ env: process.env });
    const r = spawnSync(process.execPath, ['-e', "process.stdout.write(require('fs').readFileSync('/proc/self/maps','utf8'))"], {
      env: { ...process.env, ...choice.env },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const mapped = /libjemalloc\.so/.test(r.stdout);
    if (choice.library && existsSync(choice.library)) expect(mapped).toBe(true);
    else expect(mapped).toBe(/libjemalloc/.test(process.env.LD_PRELOAD ?? ''));
  });

  it("jemalloc takes every one of the server's options: each is in force, none refused", () => {
    // jemalloc skips a pair it cannot parse with a `<jemalloc>: Invalid conf pair` warning and runs on its default,
    // so a misspelt option would pass unnoticed; its statistics (`stats_print`, at exit) list the options in force
    // as `opt.<name>: <value>`. Runs the library chooseAllocator finds here (CI has one: scripts/jemalloc.mjs).
    const lib = chooseAllocator({ env: { ...process.env, MALLOC_CONF: undefined } });
    if (!lib.library) {
      expect(lib.text).toMatch(/^system malloc/);
      return;
    }
    const r = spawnSync(process.execPath, ['-e', '0'], {
      env: { ...process.env, LD_PRELOAD: lib.library, MALLOC_CONF: `${JEMALLOC_CONF},stats_print:true` },
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const out = `${r.stdout}${r.stderr}`;
    expect(out).not.toMatch(/<jemalloc>: /);
    for (const pair of JEMALLOC_CONF.split(',')) {
      const [name, value] = pair.split(':');
      expect(out).toMatch(new RegExp(`opt\\.${name}: ${value}\\b`));
    }
  });
});

describe("the server child's young generation and V8 workers (serverHeapFlags)", () => {
  // V8 reserves its young generation as three semi-spaces' worth inside the heap limit (Heap::ConfigureHeap: the
  // limit is max old space + 3 × max semi-space), so a node started with the flags reports a heap limit larger by
  // 3 × (64 − 16) MiB than one on V8's 64-bit default of 16 MiB semi-spaces: the flag reached V8 and is in force.
  const env = { ...process.env, NODE_OPTIONS: '' };
  /** What a node started with `flags` (and no NODE_OPTIONS) prints from `script`, as a number. */
  const nodeNumber = (flags: string[], script: string): number => {
    const r = spawnSync(process.execPath, [...flags, '-e', script], { env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    return Number(r.stdout);
  };
  const heapLimitMiB = (flags: string[]) =>
    nodeNumber(flags, "process.stdout.write(String(require('v8').getHeapStatistics().heap_size_limit))") / 2 ** 20;

  it('a node started with them has a young generation of 64 MiB semi-spaces', () => {
    expect(heapLimitMiB(serverHeapFlags({})) - heapLimitMiB(['--max-semi-space-size=16'])).toBe(3 * (64 - 16));
  });

  it("keeps the operator's choices when NODE_OPTIONS has them, and adds each flag otherwise", () => {
    expect(serverHeapFlags({ NODE_OPTIONS: '--max-semi-space-size=8' })).toEqual(['--v8-pool-size=0']);
    expect(serverHeapFlags({ NODE_OPTIONS: '--min-semi-space-size=4 --enable-source-maps' })).toEqual(['--v8-pool-size=0']);
    expect(serverHeapFlags({ NODE_OPTIONS: '--v8-pool-size=2' })).toEqual(['--max-semi-space-size=64']);
    expect(serverHeapFlags({ NODE_OPTIONS: '--enable-source-maps' })).toEqual(['--max-semi-space-size=64', '--v8-pool-size=0']);
  });

  // Node's platform runs V8's workers as threads of their own (NodePlatform: a pool of --v8-pool-size threads; 0 means
  // the available parallelism less one, at least one). Counted on Linux from /proc/self/task, against a node started
  // with an explicit pool of four (node's default): the difference is 4 − max(1, parallelism − 1).
  it.runIf(process.platform === 'linux')("a node started with them sizes V8's worker pool to the machine", () => {
    const threads = (flags: string[]) =>
      nodeNumber(flags, "setTimeout(() => process.stdout.write(String(require('fs').readdirSync('/proc/self/task').length)), 50)");
    const workers = Math.max(1, availableParallelism() - 1);
    expect(threads(['--v8-pool-size=4']) - threads(serverHeapFlags({}))).toBe(4 - workers);
  });
});

describe('the image', () => {
  it('installs libjemalloc2 in the runtime stage and preloads the path it links, which serve takes as jemalloc', () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toMatch(/apt-get install -y --no-install-recommends libjemalloc2\b/);
    const link = /ln -s "\$\(ls \/usr\/lib\/\*-linux-gnu\/libjemalloc\.so\.2\)" (\S+)/.exec(runtime)?.[1];
    const preload = /^ENV LD_PRELOAD=(\S+)$/m.exec(runtime)?.[1];
    expect(link).toBe('/usr/local/lib/libjemalloc.so.2');
    expect(preload).toBe(link);
    expect(chooseAllocator({ env: { LD_PRELOAD: preload } }).text).toBe('jemalloc, preloaded');
    // The ENV comes before the USER and ENTRYPOINT, so `node bin/meshscope.mjs serve` starts with it.
    expect(runtime.indexOf('ENV LD_PRELOAD')).toBeLessThan(runtime.indexOf('ENTRYPOINT'));
  });
});
