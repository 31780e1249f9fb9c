// FileSource: loads files/directories into a SourceSink with replace(), and (watch: true) reloads on
// filesystem changes, debounced. Watching uses chokidar (one watcher per path, re-armed by chokidar across
// renames and atomic saves) plus a slow periodic rescan that re-reads every file and compares content
// hashes, so a missed event is caught within `rescanMs`. Reloads run one at a time; a change during a
// reload queues one more. A reload that throws becomes the source's error and the store keeps serving
// the last snapshot. See ./fileSet for per-file caching and last-good objects.
import { pushAll } from '../../model/schema/common';
import { dirname } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
import type { Source, SourceSink, SourceStatus } from '../types';
import { FileSet, type ScanResult } from './fileSet';
import type { FileLimits } from './parseFile';

const RELOAD_DEBOUNCE_MS = 100;
const RESCAN_MS = 30_000;
const WATCH_READY_MS = 5_000;

export interface FileSourceOptions {
  namespace?: string;
  watch?: boolean;
  /** Safety-net full rescan period (content hashes; default 30 s; 0 = off). */
  rescanMs?: number;
  debounceMs?: number;
  limits?: FileLimits;
}

export class FileSource implements Source {
  private sink: SourceSink | undefined;
  private watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private rescanTimer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private running: Promise<void> | undefined;
  private queued: { force: boolean } | undefined;
  private readonly files: FileSet;
  private readonly paths: string[];
  /** Figures of the last reload, for tests and benchmarks. */
  lastReload: { ms: number; parsed: number; files: number } | undefined;

  constructor(
    readonly id: string,
    paths: string[],
    private readonly opts: FileSourceOptions = {},
  ) {
    this.paths = paths.filter((p) => p !== '-');
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
    this.rescanTimer = undefined;
    const ws = this.watchers;
    this.watchers = [];
    await Promise.all(ws.map((w) => w.close().catch(() => undefined)));
    await this.running?.catch(() => undefined);
    this.sink?.status({ id: this.id, kind: 'file', state: 'stopped', detail: this.paths.join(', ') });
  }

  /**
   * Loads every path now (the watcher and the rescan call it too); `force` re-reads every file instead of
   * trusting unchanged stats. Resolves when this reload (or the one it was queued behind) is applied.
   */
  reload(force = false): Promise<void> {
    if (!this.sink || this.stopped) return Promise.resolve();
    if (this.running) {
      this.queued = { force: force || (this.queued?.force ?? false) };
      return this.running;
    }
    const run = async () => {
      let next: { force: boolean } | undefined = { force };
      while (next && !this.stopped) {
        this.queued = undefined;
        await this.reloadOnce(next.force);
        next = this.queued;
      }
    };
    this.running = run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async reloadOnce(force: boolean): Promise<void> {
    const sink = this.sink;
    if (!sink) return;
    const started = performance.now();
    let scan: ScanResult;
    try {
      scan = await this.files.scan(force);
    } catch (e) {
      // Never lose the last good state: the store keeps what it has; the status says why.
      sink.status({ id: this.id, kind: 'file', state: 'failing', detail: this.paths.join(', '), lastError: `reload failed: ${String(e)}` });
      return;
    }
    if (this.stopped) return;
    try {
      sink.replace(this.id, scan.inputs, scan.errors);
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

  private scheduleReload(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, this.opts.debounceMs ?? RELOAD_DEBOUNCE_MS);
  }

  private async watchAll(): Promise<void> {
    // Each path and its parent (so the path's own creation, deletion and replacement are seen). Symlinks
    // are not followed by the watcher (a loop cannot trap it); the scan follows them with loop detection.
    const parents = [...new Set(this.paths.map((p) => dirname(p)))];
    const ws = [this.watcher(this.paths, 64), this.watcher(parents, 0)];
    pushAll(this.watchers, ws);
    // Bounded: a huge tree must not hold up the first load (the rescan covers anything missed meanwhile).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const armed = Promise.all(ws.map((w) => new Promise<void>((resolve) => w.once('ready', () => resolve()))));
    await Promise.race([armed, new Promise<void>((resolve) => (timer = setTimeout(resolve, WATCH_READY_MS)))]);
    clearTimeout(timer);
  }

  private watcher(targets: string[], depth: number): FSWatcher {
    const w = watch(targets, { persistent: false, ignoreInitial: true, followSymlinks: false, depth, ignorePermissionErrors: true });
    w.on('all', () => this.scheduleReload());
    // A watcher error (e.g. ELOOP, EACCES) is reported by the next scan as a located error; keep watching.
    w.on('error', () => this.scheduleReload());
    return w;
  }
}
