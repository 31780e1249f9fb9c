// FileSource: loads files/directories into a SourceSink with replace(), and (watch: true) reloads on
// filesystem changes, debounced once (100 ms quiet, 10 s at most, like istiod's PILOT_DEBOUNCE_AFTER/MAX: the
// store publishes the reloaded batch without a debounce of its own, see ReplaceOptions.settled). Watching uses chokidar (one watcher per path, re-armed by chokidar across
// renames and atomic saves) plus a slow periodic rescan that re-reads every file and compares content
// hashes, so a missed event is caught within `rescanMs`. Reloads run one at a time; a change during a
// reload queues one more. A reload that throws becomes the source's error and the store keeps serving
// the last snapshot. See ./fileSet for per-file caching and last-good objects.
import { type FSWatcher as NodeWatcher, watch as fsWatch } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import type { Source, SourceSink, SourceStatus } from '../types';
import { FileSet, type ScanResult } from './fileSet';
import type { FileLimits } from './parseFile';

const RELOAD_DEBOUNCE_MS = 100;
const RELOAD_MAX_DELAY_MS = 10_000;
const RESCAN_MS = 30_000;
const WATCH_READY_MS = 5_000;

export interface FileSourceOptions {
  namespace?: string;
  watch?: boolean;
  /** Safety-net full rescan period (content hashes; default 30 s; 0 = off). */
  rescanMs?: number;
  /** Quiet time before a reload (default 100 ms); the store adds no debounce of its own to these reloads. */
  debounceMs?: number;
  /** A reload runs at most this long after the first change of a batch, however busy the files (default 10 s). */
  maxDelayMs?: number;
  limits?: FileLimits;
}

/** A reload to run: `only` = just these files changed in place (undefined: a full scan). */
interface Pending {
  force: boolean;
  only?: ReadonlySet<string> | undefined;
}

const merge = (a: Pending | undefined, b: Pending): Pending => {
  if (!a) return b;
  const only = a.only && b.only ? new Set([...a.only, ...b.only]) : undefined;
  return { force: a.force || b.force, only };
};

export class FileSource implements Source {
  private sink: SourceSink | undefined;
  private watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the first change of the batch now being debounced arrived (performance.now()). */
  private batchStart: number | undefined;
  private rescanTimer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private running: Promise<void> | undefined;
  private queued: Pending | undefined;
  private changed = new Set<string>();
  private readonly parentWatchers = new Map<string, NodeWatcher>();
  private full = false;
  private readonly files: FileSet;
  private readonly paths: string[];
  private readonly resolved: string[];
  /** Figures of the last reload, for tests and benchmarks. */
  lastReload: { ms: number; parsed: number; files: number } | undefined;

  constructor(
    readonly id: string,
    paths: string[],
    private readonly opts: FileSourceOptions = {},
  ) {
    this.paths = paths.filter((p) => p !== '-');
    this.resolved = this.paths.map((p) => resolve(p));
    const setOpts = {
      ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
      ...(opts.limits ? { limits: opts.limits } : {}),
    };
    this.files = new FileSet(this.paths, setOpts);
  }

  async start(sink: SourceSink): Promise<void> {
    this.sink = sink;
    this.stopped = false;
    // Watch first and wait until the watchers are armed, so nothing written after start() is missed.
    if (this.opts.watch) await this.watchAll();
    await this.reload();
    const every = this.opts.rescanMs ?? RESCAN_MS;
    if (this.opts.watch && every > 0) {
      this.rescanTimer = setInterval(() => void this.reload(true), every);
      this.rescanTimer.unref?.();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.rescanTimer) clearInterval(this.rescanTimer);
    this.timer = undefined;
    this.batchStart = undefined;
    this.rescanTimer = undefined;
    const ws = this.watchers;
    this.watchers = [];
    for (const pw of this.parentWatchers.values()) pw.close();
    this.parentWatchers.clear();
    await Promise.all(ws.map((w) => w.close().catch(() => undefined)));
    await this.running?.catch(() => undefined);
    this.sink?.status({ id: this.id, kind: 'file', state: 'stopped', detail: this.paths.join(', ') });
  }

  /**
   * Loads every path now (the watcher and the rescan call it too); `force` re-reads every file instead of
   * trusting unchanged stats. Resolves when this reload (or the one it was queued behind) is applied.
   */
  reload(force = false, only?: ReadonlySet<string>): Promise<void> {
    if (!this.sink || this.stopped) return Promise.resolve();
    if (this.running) {
      this.queued = merge(this.queued, { force, only });
      return this.running;
    }
    const run = async () => {
      let next: Pending | undefined = { force, only };
      while (next && !this.stopped) {
        this.queued = undefined;
        await this.reloadOnce(next.force, next.only);
        if (this.opts.watch && !this.stopped) this.watchParents();
        next = this.queued;
      }
    };
    this.running = run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The files changed in place since the last reload, or undefined when a full scan is needed. */
  private takeChanged(): Set<string> | undefined {
    const out = this.full ? undefined : this.changed;
    this.full = false;
    this.changed = new Set();
    return out;
  }

  private async reloadOnce(force: boolean, only?: ReadonlySet<string>): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    const started = performance.now();
    let scan: ScanResult;
    try {
      scan = await this.files.scan(force, only);
    } catch (e) {
      // Never lose the last good state: the store keeps what it has; the status says why.
      sink.status({ id: this.id, kind: 'file', state: 'failing', detail: this.paths.join(', '), lastError: `reload failed: ${String(e)}` });
      return;
    }
    if (this.stopped) return;
    try {
      // Settled: this batch already waited out the debounce below; the store publishes it without a second one.
      sink.replace(this.id, scan.inputs, scan.errors, { settled: true });
    } catch (e) {
      sink.status({ id: this.id, kind: 'file', state: 'failing', detail: this.paths.join(', '), lastError: `reload failed: ${String(e)}` });
      return;
    }
    this.lastReload = { ms: performance.now() - started, parsed: scan.parsed, files: scan.files };
    const fatal = scan.errors.find((e) => e.severity === 'error');
    const status: SourceStatus = {
      id: this.id,
      kind: 'file',
      state: 'connected',
      detail: `${this.paths.join(', ')} (${scan.inputs.length} objects)`,
    };
    if (fatal) status.lastError = `${fatal.file ?? ''}${fatal.doc !== undefined ? `#${fatal.doc}` : ''}: ${fatal.message}`;
    sink.status(status);
  }

  private scheduleReload(changed?: string): void {
    if (this.stopped) return;
    if (changed === undefined) this.full = true;
    else this.changed.add(changed);
    if (this.timer) clearTimeout(this.timer);
    // istiod's debounce: quiet for debounceMs (PILOT_DEBOUNCE_AFTER), or at most maxDelayMs after the first
    // change of the batch (PILOT_DEBOUNCE_MAX), so a file rewritten without pause is still picked up.
    const now = performance.now();
    this.batchStart ??= now;
    const quiet = this.opts.debounceMs ?? RELOAD_DEBOUNCE_MS;
    const wait = Math.max(0, Math.min(quiet, this.batchStart + (this.opts.maxDelayMs ?? RELOAD_MAX_DELAY_MS) - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.batchStart = undefined;
      void this.reload(false, this.takeChanged());
    }, wait);
  }

  private async watchAll(): Promise<void> {
    // chokidar on the paths themselves (symlinks are not followed by the watcher, so a loop cannot trap it;
    // the scan follows them with loop detection), and a plain non-recursive fs.watch on each parent directory
    // for the paths' own creation, deletion and replacement: then the path is re-added to chokidar too.
    const w = this.watcher(this.paths);
    this.watchers.push(w);
    this.watchParents();
    // Bounded: a huge tree must not hold up the first load (the rescan covers anything missed meanwhile).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const armed = new Promise<void>((resolve) => w.once('ready', () => resolve()));
    await Promise.race([armed, new Promise<void>((resolve) => (timer = setTimeout(resolve, WATCH_READY_MS)))]);
    clearTimeout(timer);
  }

  private watchParents(): void {
    for (const p of this.paths) {
      const parent = dirname(p);
      const name = basename(p);
      if (this.parentWatchers.has(p)) continue;
      try {
        const pw = fsWatch(parent, { persistent: false }, (_event, file) => {
          if (file !== null && file.toString() !== name) return;
          for (const w of this.watchers) w.unwatch(p).add(p); // re-arm: the path may be a new inode now
          this.scheduleReload();
        });
        pw.on('error', () => {
          pw.close();
          this.parentWatchers.delete(p); // re-armed by the next reload
        });
        this.parentWatchers.set(p, pw);
      } catch {
        // The parent does not exist (yet): the periodic rescan and the next reload re-try.
      }
    }
  }

  /** Whether a watcher event's path is one of the configured paths or inside one. */
  private concerns(path: string): boolean {
    const p = resolve(path);
    return this.resolved.some((r) => p === r || p.startsWith(r.endsWith(sep) ? r : r + sep));
  }

  private watcher(targets: string[]): FSWatcher {
    const w = watch(targets, { persistent: true, ignoreInitial: true, followSymlinks: false, depth: 64, ignorePermissionErrors: true });
    // In-place changes of known files need only those files re-read; anything else (add, unlink, dirs) a full scan.
    // chokidar re-arms its fs.watch handles across renames, but drops some in-place changes of a file it
    // just saw change (its access-time check), so the raw events drive the reloads too: a raw `change` of a
    // file re-reads that file only; anything else (renames, adds, unlinks, directories) is a full scan.
    w.on('all', (event, path) => {
      if (this.concerns(path)) this.scheduleReload(event === 'change' ? path : undefined);
    });
    w.on('raw', (event, name, details) => {
      const watched = (details as { watchedPath?: string } | undefined)?.watchedPath;
      if (!watched || !name) return;
      const path = basename(watched) === name ? watched : join(watched, name);
      if (this.concerns(path)) this.scheduleReload(event === 'change' ? path : undefined);
    });
    // A watcher error (e.g. ELOOP, EACCES) is reported by the next scan as a located error; keep watching.
    w.on('error', () => this.scheduleReload());
    return w;
  }
}
