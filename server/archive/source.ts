// `serve --bug-report FILE|DIR`: the archive as a mesh Source (its cluster objects, read once: an archive
// does not change) and as the LiveSource of its pods' dumps, sharing one read. An archive that cannot be
// used is a failing source with its reason (the server keeps serving) and a 502 `archive` on /live. Its
// istiods' `debug/syncz` join /debug/syncz as `source: "bug-report"` entries (syncz.ts; the proxies table).
import { LiveError, type LiveFetchOptions, type LiveSource } from '../live/types';
import type { Source, SourceSink } from '../sources/types';
import { archiveInputs, archiveLiveSource, archiveProxies } from './index';
import { type ArchiveContents, readArchive } from './read';
import { archiveSyncz } from './syncz';
import type { SyncStatus } from '../xds/types';

export const ARCHIVE_SOURCE_ID = 'bug-report';

export class ArchiveSource implements Source {
  readonly id = ARCHIVE_SOURCE_ID;
  private read: Promise<ArchiveContents> | undefined;
  private live: LiveSource | undefined;
  private sync: readonly SyncStatus[] = [];

  constructor(
    readonly path: string,
    private readonly opts: { namespace?: string; now?: () => string } = {},
  ) {}

  /** The archive's contents (read on first use, then kept). */
  contents(): Promise<ArchiveContents> {
    this.read ??= readArchive(this.path);
    return this.read;
  }

  async start(sink: SourceSink): Promise<void> {
    let a: ArchiveContents;
    try {
      a = await this.contents();
    } catch (e) {
      sink.replace(this.id, [], [{ severity: 'error', message: (e as Error).message, file: this.path }]);
      sink.status({ id: this.id, kind: 'file', state: 'failing', lastError: (e as Error).message });
      return;
    }
    const { inputs, errors } = archiveInputs(a, this.opts.namespace);
    const syncz = archiveSyncz(a);
    this.sync = syncz.entries;
    sink.replace(this.id, inputs, [...errors, ...syncz.errors]);
    const dumps = archiveProxies(a).length;
    sink.status({
      id: this.id,
      kind: 'file',
      state: 'connected',
      detail: `${a.kind} ${this.path}: ${inputs.length} objects, ${dumps} pod config dump${dumps === 1 ? '' : 's'}`,
    });
  }

  async stop(): Promise<void> {}

  /** istiod's sync state per proxy from the archive's `debug/syncz` files (`source: "bug-report"`); [] until started. */
  syncz(): readonly SyncStatus[] {
    return this.sync;
  }

  /** The pods' dumps as a LiveSource (`source: "bug-report"` / `"must-gather"`). */
  liveSource(): LiveSource {
    return {
      fetch: async (proxyId: string, opts?: LiveFetchOptions) => {
        let a: ArchiveContents;
        try {
          a = await this.contents();
        } catch (e) {
          throw new LiveError(502, 'archive', (e as Error).message);
        }
        this.live ??= archiveLiveSource(a, this.opts.now?.() ?? new Date().toISOString());
        return this.live.fetch(proxyId, opts);
      },
    };
  }
}
