// FileSource: loads files/directories into a SourceSink with replace(), and (watch: true) reloads on
// filesystem changes, debounced once (100 ms quiet, 10 s at most, like istiod's PILOT_DEBOUNCE_AFTER/MAX: the
// store publishes the reloaded batch without a debounce of its own, see ReplaceOptions.settled). Watching is a
// plain fs.watch per directory of the tree (./dirWatch; an in-place edit re-reads that file only, anything else
// is a full scan, which also re-arms watchers across renames and replaced directories), one per configured
// path's parent, plus a slow periodic rescan that re-reads every file and compares content hashes, so a
// missed event is caught within `rescanMs`. Reloads run one at a time; a change during a reload queues one
// more. A reload that throws becomes the source's error and the store keeps serving the last snapshot. The
// watcher's and the rescan's reloads parse big files in the background (./fileSet BACKGROUND_PARSE_BYTES), so a
// big, half-written or refused file never holds up an edit to another. See ./fileSet for per-file caching and
// last-good objects.
import { type FSWatcher as NodeWatcher, watch as fsWatch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { DirWatchers } from './dirWatch';
import type { Source, SourceSink, SourceStatus } from '../types';
import { type FirstLoad, FileSet, type ScanResult } from './fileSet';
import { expandPaths } from './loadPaths';
import type { FileLimits } from './parseFile';

const RELOAD_DEBOUNCE_MS = 100;
const RELOAD_MAX_DELAY_MS = 10_000;
const RESCAN_MS = 30_000;

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
  /** First loads of big files on a parse worker (./fileSet FileSetOptions.firstLoad; the runtime's parse pool). */
  firstLoad?: FirstLoad;
}

/**
 * A reload to run: `only` = just these files changed in place (undefined: a full scan); `background`: big
 * files are parsed off the reload (FileSet BACKGROUND_PARSE_BYTES), as the watcher and the rescan ask.
 */
interface Pending {
  force: boolean;
  only?: ReadonlySet<string> | undefined;
  background?: boolean;
}

const merge = (a: Pending | undefined, b: Pending): Pending => {
  if (!a) return b;
  const only = a.only && b.only ? new Set([...a.only, ...b.only]) : undefined;
  return { force: a.force || b.force, only, background: a.background === true && b.background === true };
};

export class FileSource implements Source {
  private sink: SourceSink | undefined;
  private dirWatch: DirWatchers | undefined;
  /** The directory list the watchers were last synced to (FileSet.directories(): a new array per full scan). */
  private syncedDirs: readonly string[] | undefined;
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
  /** Figures of the last reload, for tests and benchmarks. */
  lastReload: { ms: number; parsed: number; files: number; pieces: number } | undefined;

  constructor(
    readonly id: string,
    paths: string[],
    private readonly opts: FileSourceOptions = {},
  ) {
    this.paths = paths.filter((p) => p !== '-');
    const setOpts = {
      ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
      ...(opts.limits ? { limits: opts.limits } : {}),
      ...(opts.firstLoad ? { firstLoad: opts.firstLoad } : {}),
      // A big file parsed off a reload: the reload that serves its result (that file only).
      onBackgroundParsed: (file: string) => {
        if (this.opts.watch) this.scheduleReload(this.files.has(file) ? file : undefined);
      },
    };
    this.files = new FileSet(this.paths, setOpts);
  }

  async start(sink: SourceSink): Promise<void> {
    this.sink = sink;
    this.stopped = false;
    // Watch first and wait until the watchers are armed, so nothing written after start() is missed.
    if (this.opts.watch) this.watchAll();
    await this.reload();
    const every = this.opts.rescanMs ?? RESCAN_MS;
    if (this.opts.watch && every > 0) {
      this.rescanTimer = setInterval(() => void this.reload(true, undefined, true), every);
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
    this.dirWatch?.close();
    this.dirWatch = undefined;
    this.syncedDirs = undefined;
    for (const pw of this.parentWatchers.values()) pw.close();
    this.parentWatchers.clear();
    await this.running?.catch(() => undefined);
    this.sink?.status({ id: this.id, kind: 'file', state: 'stopped', detail: this.paths.join(', ') });
  }

  /**
   * Loads every path now (the watcher and the rescan call it too); `force` re-reads every file instead of
   * trusting unchanged stats. Resolves when this reload (or the one it was queued behind) is applied.
   */
  reload(force = false, only?: ReadonlySet<string>, background = false): Promise<void> {
    if (!this.sink || this.stopped) return Promise.resolve();
    if (this.running) {
      this.queued = merge(this.queued, { force, only, background });
      return this.running;
    }
    const run = async () => {
      let next: Pending | undefined = { force, only, background };
      while (next && !this.stopped) {
        this.queued = undefined;
        await this.reloadOnce(next.force, next.only, next.background === true);
        if (this.opts.watch && !this.stopped) {
          this.watchParents();
          this.syncDirs(this.files.directories());
        }
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

  private async reloadOnce(force: boolean, only: ReadonlySet<string> | undefined, background: boolean): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    const started = performance.now();
    let scan: ScanResult;
    try {
      scan = await this.files.scan(force, only, background);
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
    this.lastReload = { ms: performance.now() - started, parsed: scan.parsed, files: scan.files, pieces: scan.pieces };
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
      void this.reload(false, this.takeChanged(), true);
    }, wait);
  }

  private watchAll(): void {
    // A plain non-recursive fs.watch on every directory of the tree (./dirWatch: armed here, before the first
    // read, and re-synced after every full scan), and one on each configured path's parent directory for the
    // path's own creation, deletion and replacement (then a full scan re-arms what changed).
    this.dirWatch ??= new DirWatchers((path, inPlace) => {
      if (this.stopped) return;
      this.scheduleReload(inPlace && path !== undefined && this.files.has(path) ? path : undefined);
    });
    this.syncDirs(expandPaths(this.paths).dirs);
    this.watchParents();
  }

  /** Arms the directory watchers on `dirs` (the last full scan's directories). */
  private syncDirs(dirs: readonly string[]): void {
    if (!this.dirWatch || dirs === this.syncedDirs) return;
    this.syncedDirs = dirs;
    this.dirWatch.sync(dirs);
  }

  private watchParents(): void {
    for (const p of this.paths) {
      const parent = dirname(p);
      const name = basename(p);
      if (this.parentWatchers.has(p)) continue;
      try {
        const pw = fsWatch(parent, { persistent: false }, (event, file) => {
          if (file !== null && file.toString() !== name) return;
          // A configured file changed in place: that file only; anything else (the path created, deleted or
          // replaced, possibly by a new directory): a full scan, which re-arms the directory watchers.
          this.scheduleReload(event === 'change' && file !== null && this.files.has(p) ? p : undefined);
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
}
