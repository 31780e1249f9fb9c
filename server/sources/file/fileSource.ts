// FileSource: loads files/directories into a SourceSink with replace(), and (watch: true) reloads on
// filesystem changes, debounced. Deleted/renamed files and directories are handled by re-expanding the
// paths on every reload; a bad edit only affects the objects of the edited file.
import { type FSWatcher, watch } from 'node:fs';
import { dirname } from 'node:path';
import type { Source, SourceSink, SourceStatus } from '../types';
import { loadPaths } from './loadPaths';

const RELOAD_DEBOUNCE_MS = 100;

export class FileSource implements Source {
  private sink: SourceSink | undefined;
  private watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    readonly id: string,
    private readonly paths: string[],
    private readonly opts?: { namespace?: string; watch?: boolean },
  ) {}

  async start(sink: SourceSink): Promise<void> {
    this.sink = sink;
    this.stopped = false;
    this.reload();
    if (this.opts?.watch) this.watchAll();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.watchers) w.close();
    this.watchers = [];
    this.sink?.status({ id: this.id, kind: 'file', state: 'stopped', detail: this.paths.join(', ') });
  }

  /** Re-reads every path now (also used by the watcher). */
  reload(): void {
    if (!this.sink || this.stopped) return;
    const loadOpts = this.opts?.namespace !== undefined ? { namespace: this.opts.namespace } : {};
    const { inputs, errors } = loadPaths(
      this.paths.filter((p) => p !== '-'),
      loadOpts,
    );
    this.sink.replace(this.id, inputs, errors);
    const fatal = errors.filter((e) => e.severity === 'error');
    const status: SourceStatus = {
      id: this.id,
      kind: 'file',
      state: 'connected',
      detail: `${this.paths.join(', ')} (${inputs.length} objects)`,
    };
    if (fatal[0]) status.lastError = `${fatal[0].file ?? ''}${fatal[0].doc !== undefined ? `#${fatal[0].doc}` : ''}: ${fatal[0].message}`;
    this.sink.status(status);
  }

  private scheduleReload(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.reload();
      // A watched directory may have been deleted and re-created: re-arm watchers that died.
      if (this.watchers.length === 0) this.watchAll();
    }, RELOAD_DEBOUNCE_MS);
  }

  private watchAll(): void {
    for (const p of this.paths) {
      if (p === '-') continue;
      // Watch the path itself (recursive where supported) and its parent, so creations, deletions and
      // renames of the path are seen too.
      this.watchOne(p, true);
      this.watchOne(dirname(p), false);
    }
  }

  private watchOne(target: string, recursive: boolean): void {
    const onEvent = () => this.scheduleReload();
    let w: FSWatcher | undefined;
    try {
      w = watch(target, { recursive, persistent: false }, onEvent);
    } catch {
      if (!recursive) return;
      try {
        w = watch(target, { persistent: false }, onEvent);
      } catch {
        return; // does not exist (yet): the parent watcher sees it appear
      }
    }
    w.on('error', () => {
      w?.close();
      this.watchers = this.watchers.filter((x) => x !== w);
      this.scheduleReload();
    });
    this.watchers.push(w);
  }
}
