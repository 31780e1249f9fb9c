// Big watched files are read into memory that is already paged in (issue 24, the 5× pod IP change): on this
// project's VMs a fresh 12 MB Buffer (what fs.readFile allocates for the 5× Pod export on every edit) costs
// 50–100 ms of page faults, and the first compare against it as much again, where reading the same bytes into
// a buffer that was written before takes ~1 ms. So each big file has two buffers that take turns: the one its
// last narrowed load's bytes are in, and a spare the next edit is read into; when that edit's load replaces
// the last one, the last one's buffer is the spare. A buffer is only ever written while it is the spare, and
// it becomes the spare again only when nothing else refers to its bytes (see FileSet.load: the bytes of a load
// that was not narrowed are never given back).
import { close, open, read } from 'node:fs';
import { promisify } from 'node:util';

/** Files at least this big are read through here (smaller ones: fs.readFile, whose allocation is cheap). */
export const REUSE_READ_BYTES = 1024 * 1024;

const openAsync = promisify(open);
const readAsync = promisify(read);
const closeAsync = promisify(close);

/** Room to grow: an edit that makes the file this much bigger still fits its buffers. */
const slack = (size: number) => Math.max(64 * 1024, size >> 4);

export class ReadBuffers {
  /** The buffers this made (only these are ever written or handed out as spares). */
  private readonly ours = new WeakSet<ArrayBufferLike>();
  private readonly spares = new Map<string, Buffer>();

  constructor(private readonly minBytes = REUSE_READ_BYTES) {}

  /** Whether a file of `size` bytes is read here. */
  wants(size: number): boolean {
    return size >= this.minBytes;
  }

  /**
   * The file's bytes, read into its spare buffer (or a new one with room to grow when there is none or it is too
   * small). The buffer is the caller's now: give it back (`unused`) when the bytes were not kept. Undefined when
   * the file outgrew the buffer while it was read (read it another way).
   */
  async read(file: string, size: number): Promise<Buffer | undefined> {
    let buf = this.spares.get(file);
    this.spares.delete(file);
    if (!buf || buf.length <= size) buf = this.alloc(size);
    const fd = await openAsync(file, 'r');
    try {
      let at = 0;
      for (;;) {
        if (at === buf.length) {
          this.spares.set(file, buf);
          return undefined;
        }
        const { bytesRead: n } = await readAsync(fd, buf, at, buf.length - at, at);
        if (n === 0) return buf.subarray(0, at);
        at += n;
      }
    } finally {
      await closeAsync(fd);
    }
  }

  /** Bytes `read` returned were not kept by anyone: their buffer is the file's spare again. */
  unused(file: string, bytes: Buffer): void {
    this.keep(file, bytes);
  }

  /**
   * A file's narrowed load was replaced by one with other bytes (`now`): the old bytes' buffer, when it is one of
   * these, is the spare; else a spare is made and paged in now, off the next edit's path.
   */
  replaced(file: string, old: Buffer | undefined, now: Buffer): void {
    if (!this.wants(now.length)) return this.forget(file);
    if (old && old.buffer !== now.buffer) this.keep(file, old);
    if (!this.spares.has(file)) this.spares.set(file, this.alloc(now.length).fill(0));
  }

  forget(file: string): void {
    this.spares.delete(file);
  }

  private keep(file: string, bytes: Buffer): void {
    if (!this.ours.has(bytes.buffer) || this.spares.has(file)) return;
    this.spares.set(file, Buffer.from(bytes.buffer, 0, bytes.buffer.byteLength));
  }

  private alloc(size: number): Buffer {
    const buf = Buffer.allocUnsafeSlow(size + slack(size));
    this.ours.add(buf.buffer);
    return buf;
  }
}
