// `--mesh-config FILE`: the mesh config file istiod would be given (`--meshConfig`), read and watched. Its text
// replaces the ConfigMap istio-system/istio in the store. A file that cannot be read, or whose YAML is unusable,
// is a located error and the last good text keeps serving (istiod keeps its last good mesh config).
// Polled: one small file, and polling survives editors that replace the file by rename. Each poll compares the
// file's stat with the stat of the last read (not with a watcher's own first stat, which can be taken after an
// early edit and then never see it).
import { readFile, stat } from 'node:fs/promises';
import type { LoadError } from '../../model/mesh';
import { parseMeshConfig } from '../../model/parse/meshConfig';
import type { MeshConfigOverride } from '../../model/parse/meshSource';

/** The store's side of it (Store.setMeshConfig). */
export interface MeshConfigSink {
  setMeshConfig(override: MeshConfigOverride | undefined, errors?: readonly LoadError[]): void;
}

export const MAX_MESH_CONFIG_BYTES = 1 << 20;

export interface MeshConfigFileOptions {
  watch?: boolean;
  /** Poll interval (ms) of the watch; default 500. */
  intervalMs?: number;
}

export class MeshConfigFile {
  private good: MeshConfigOverride | undefined;
  private stopped = false;
  private reading: Promise<void> = Promise.resolve();
  /** `ino:size:mtime` of the file as last read, MISSING when it could not be stat'ed, undefined before the first read. */
  private readStat: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly path: string,
    private readonly sink: MeshConfigSink,
    private readonly opts: MeshConfigFileOptions = {},
  ) {}

  async start(): Promise<void> {
    await this.reload();
    if (this.opts.watch && !this.stopped) {
      this.timer = setInterval(() => {
        this.reading = this.reading.then(() => this.poll());
      }, this.opts.intervalMs ?? 500);
      this.timer.unref();
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Re-reads the file when its stat differs from the last read's (appeared, changed, replaced or gone). */
  private async poll(): Promise<void> {
    if (this.stopped) return;
    const now = await stat(this.path).then(statKey, () => MISSING);
    if (now !== this.readStat) await this.reload();
  }

  /** Reads the file now and hands the store its text, or the last good text with the error. */
  async reload(): Promise<void> {
    if (this.stopped) return;
    const fail = (message: string): void => {
      const e: LoadError = { severity: 'error', message: `--mesh-config: ${message}`, file: this.path };
      if (this.good) e.message += '; the last good mesh config is kept';
      this.sink.setMeshConfig(this.good, [e]);
    };
    let text: string;
    try {
      this.readStat = MISSING;
      const st = await stat(this.path);
      this.readStat = statKey(st); // an edit after this stat shows as a newer stat at the next poll
      if (!st.isFile()) return fail('not a file');
      if (st.size > MAX_MESH_CONFIG_BYTES) return fail(`larger than ${MAX_MESH_CONFIG_BYTES} bytes`);
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      return fail(`cannot read mesh config file: ${(e as Error).message}`);
    }
    if (this.stopped) return;
    const next = { file: this.path, text };
    // Unusable YAML with a good text in force: keep it, and show why (with the parse's own located problem).
    if (this.good && !parseMeshConfig(text).config) {
      const problems = parseMeshConfig(text, { file: this.path }).problems;
      return this.sink.setMeshConfig(this.good, problems);
    }
    this.good = next;
    this.sink.setMeshConfig(next);
  }
}

const MISSING = 'missing';
const statKey = (st: { ino: number; size: number; mtimeMs: number }) => `${st.ino}:${st.size}:${st.mtimeMs}`;
