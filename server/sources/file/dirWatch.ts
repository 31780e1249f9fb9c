// The file source's directory watchers: one plain, non-recursive fs.watch per directory of the watched tree (the
// directories its last full scan walked). An event names the entry that changed, so an in-place edit costs one
// file's re-read. (chokidar, used before issue 12, re-lists and lstat's a whole directory on every event in it:
// 5,000 lstat calls per edit in a 5,000-file directory, more than the rest of the reload and snapshot together.)
// A directory replaced by a new one under the same path (a new inode) is re-armed by the next sync.
import { type FSWatcher, statSync, watch } from 'node:fs';
import { join } from 'node:path';

/** `path`: the entry an event names (undefined: unknown, rescan all); `inPlace`: its content changed, nothing moved. */
export type DirEventHandler = (path: string | undefined, inPlace: boolean) => void;

export class DirWatchers {
  private readonly open = new Map<string, { watcher: FSWatcher; ino: number }>();

  constructor(private readonly onEvent: DirEventHandler) {}

  /** Watches exactly `dirs`: new ones are armed, replaced ones re-armed, the others closed. */
  sync(dirs: readonly string[]): void {
    const want = new Set(dirs);
    for (const [dir, w] of this.open)
      if (!want.has(dir)) {
        w.watcher.close();
        this.open.delete(dir);
      }
    for (const dir of want) {
      let ino: number;
      try {
        ino = statSync(dir).ino;
      } catch {
        continue; // gone since the scan: the next scan drops it
      }
      const current = this.open.get(dir);
      if (current?.ino === ino) continue;
      current?.watcher.close();
      this.open.delete(dir);
      this.arm(dir, ino);
    }
  }

  close(): void {
    for (const w of this.open.values()) w.watcher.close();
    this.open.clear();
  }

  private arm(dir: string, ino: number): void {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: true }, (event, name) => {
        const entry = name?.toString();
        // Dot-entries are never loaded (loadPaths.walkDir); a rename from one still names the new entry.
        if (entry?.startsWith('.')) return;
        this.onEvent(entry === undefined ? undefined : join(dir, entry), event === 'change' && entry !== undefined);
      });
    } catch {
      return; // unreadable: the scan reports it as a located error; the next scan's sync tries again
    }
    watcher.on('error', () => {
      watcher.close();
      if (this.open.get(dir)?.watcher === watcher) this.open.delete(dir);
      this.onEvent(undefined, false); // a full scan re-syncs (and re-arms what still exists)
    });
    this.open.set(dir, { watcher, ino });
  }
}
