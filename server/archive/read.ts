// Opens an `istioctl bug-report` archive or an OSSM must-gather (a `.tar.gz`, `.tgz`, `.tar`, or the directory
// it was extracted to) and keeps only the files meshscope reads (layout.ts), as text. Bounded: the number of
// entries, each kept file's size, the total kept, the archive's size and the bytes scanned (a gzip bomb stops
// at the cap); entries whose path could escape the root (absolute, `..`) and links are never read. Nothing is
// written to disk. Problems are located (`archive:entry: …`); only an unreadable or over-limit archive throws.
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import type { LoadError } from '../model/mesh';
import { type ArchiveKind, classifyEntry, type EntryRole, safeSegments } from './layout';

export interface ArchiveLimits {
  /** Entries (files, folders, links) in the archive or below the directory. */
  maxEntries: number;
  /** One kept file (a cluster List, a config dump). */
  maxEntryBytes: number;
  /** All kept files together. */
  maxTotalBytes: number;
  /** The archive file itself. */
  maxArchiveBytes: number;
  /** Every entry's declared size together (what gunzip must produce to reach the end). */
  maxScannedBytes: number;
}

const MiB = 1024 * 1024;
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 200_000,
  maxEntryBytes: 128 * MiB,
  maxTotalBytes: 1024 * MiB,
  maxArchiveBytes: 2048 * MiB,
  maxScannedBytes: 16 * 1024 * MiB,
};

export interface ArchiveFile {
  /** The entry's path inside the archive (or relative to the directory), `/`-separated. */
  path: string;
  role: EntryRole;
  text: string;
}

export interface ArchiveContents {
  /** The path given (for messages and `file` of located errors). */
  source: string;
  kind: ArchiveKind;
  files: ArchiveFile[];
  errors: LoadError[];
}

/** The archive cannot be used at all: unreadable, not a tar, or over a limit. */
export class ArchiveError extends Error {
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
    this.name = 'ArchiveError';
  }
}

class Collector {
  readonly files: ArchiveFile[] = [];
  readonly errors: LoadError[] = [];
  entries = 0;
  kept = 0;
  scanned = 0;
  constructor(
    readonly source: string,
    readonly limits: ArchiveLimits,
  ) {}
  error(entry: string, message: string): void {
    this.errors.push({ severity: 'error', message: `${entry}: ${message}`, file: this.source });
  }
  /** Counts an entry; throws past the entry or scan limits. */
  count(size: number): void {
    this.entries++;
    this.scanned += Math.max(0, size);
    if (this.entries > this.limits.maxEntries) throw new ArchiveError(this.source, `more than ${this.limits.maxEntries} entries`);
    if (this.scanned > this.limits.maxScannedBytes)
      throw new ArchiveError(this.source, `more than ${this.limits.maxScannedBytes} bytes of content`);
  }
  /** Whether a file of this size may be kept (else a located error). */
  admit(path: string, size: number): boolean {
    if (size > this.limits.maxEntryBytes) {
      this.error(path, `${size} bytes, over the limit of ${this.limits.maxEntryBytes} per file; not read`);
      return false;
    }
    if (this.kept + size > this.limits.maxTotalBytes) {
      this.error(path, `the archive's files meshscope reads exceed ${this.limits.maxTotalBytes} bytes together; not read`);
      return false;
    }
    this.kept += size;
    return true;
  }
  add(path: string, role: EntryRole, bytes: Buffer): void {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return this.error(path, 'not UTF-8; not read');
    }
    this.files.push({ path, role, text });
  }
  result(): ArchiveContents {
    const mustGather = this.files.some((f) => f.role.kind === 'must-gather');
    const bugReport = this.files.some((f) => f.role.kind === 'bug-report');
    if (!mustGather && !bugReport)
      throw new ArchiveError(
        this.source,
        'neither an istioctl bug-report (cluster/, proxies/) nor a must-gather (namespaces/<ns>/pods/<pod>/config_dump_proxy.json)',
      );
    this.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { source: this.source, kind: mustGather && !bugReport ? 'must-gather' : 'bug-report', files: this.files, errors: this.errors };
  }
}

function readTar(file: string, c: Collector): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      stream.destroy();
      reject(e instanceof ArchiveError ? e : new ArchiveError(file, `not a readable tar archive: ${(e as Error).message}`));
    };
    const parser = new Parser({
      strict: false,
      onwarn: (code, message) => {
        if (code === 'TAR_BAD_ARCHIVE' || code === 'TAR_ABORT') fail(new Error(message));
      },
      onReadEntry: (entry: ReadEntry) => {
        try {
          c.count(entry.size);
        } catch (e) {
          entry.resume();
          return fail(e);
        }
        const path = entry.path;
        const role = classifyEntry(path);
        if (!safeSegments(path)) {
          c.error(path, 'path escapes the archive root; not read');
          return void entry.resume();
        }
        if (!role) return void entry.resume();
        if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') {
          c.error(path, `is a ${entry.type}, not a file; not followed`);
          return void entry.resume();
        }
        if (!c.admit(path, entry.size)) return void entry.resume();
        const chunks: Buffer[] = [];
        let got = 0;
        entry.on('data', (d: Buffer) => {
          got += d.length;
          if (got <= entry.size) chunks.push(d);
        });
        entry.on('end', () => c.add(path, role, Buffer.concat(chunks)));
      },
    });
    parser.on('error', fail);
    const stream = createReadStream(file);
    stream.on('error', fail);
    parser.on('end', () => {
      if (!failed) resolvePromise();
    });
    stream.pipe(parser as unknown as NodeJS.WritableStream);
  });
}

async function readDir(root: string, c: Collector): Promise<void> {
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      const full = join(dir, e.name);
      const rel = relative(root, full).split(sep).join('/');
      const st = await lstat(full);
      c.count(st.isFile() ? st.size : 0);
      if (st.isSymbolicLink()) {
        if (classifyEntry(rel)) c.error(rel, 'is a symbolic link; not followed');
        continue;
      }
      if (st.isDirectory()) {
        await walk(full);
        continue;
      }
      const role = st.isFile() ? classifyEntry(rel) : undefined;
      if (!role || !c.admit(rel, st.size)) continue;
      c.add(rel, role, await readFile(full));
    }
  };
  await walk(root);
}

/** Reads the archive (`.tar.gz`, `.tgz`, `.tar`, or a directory). Throws ArchiveError when it cannot be used. */
export async function readArchive(path: string, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<ArchiveContents> {
  let st;
  try {
    st = await stat(path);
  } catch (e) {
    throw new ArchiveError(path, `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const c = new Collector(path, limits);
  if (st.isDirectory()) await readDir(path, c);
  else {
    if (st.size > limits.maxArchiveBytes) throw new ArchiveError(path, `${st.size} bytes, over the limit of ${limits.maxArchiveBytes}`);
    await readTar(path, c);
  }
  return c.result();
}
