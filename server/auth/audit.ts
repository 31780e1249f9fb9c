// The audit log of writes: one JSON line per sandbox apply or reset — who (user, groups), when, which
// objects, the dry run's and the real result — on stdout and appended to `--audit-log FILE`, and kept in
// memory (the last 1,000) for GET /api/audit, which shows each caller the entries whose objects all lie in
// namespaces it may see. Tokens never enter an entry.
import { appendFile } from 'node:fs/promises';

export interface AuditObject {
  kind: string;
  namespace?: string;
  name: string;
}

export interface AuditEntry {
  time: string;
  user: string;
  groups: string[];
  action: 'apply' | 'reset';
  objects: AuditObject[];
  dryRun: { ok: boolean; message?: string };
  result: 'applied' | 'refused' | 'failed' | 'dry-run failed';
  message?: string;
}

export const AUDIT_KEEP = 1000;

export class AuditLog {
  private readonly entries: AuditEntry[] = [];
  private writing: Promise<void> = Promise.resolve();
  constructor(
    private readonly file: string | undefined,
    private readonly out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
  ) {}

  record(entry: AuditEntry): void {
    this.entries.push(entry);
    if (this.entries.length > AUDIT_KEEP) this.entries.splice(0, this.entries.length - AUDIT_KEEP);
    const line = JSON.stringify({ audit: 'meshscope', ...entry });
    this.out(line);
    const file = this.file;
    if (file) this.writing = this.writing.then(() => appendFile(file, `${line}\n`, { mode: 0o600 }).catch(() => undefined));
  }

  /** Newest first: the entries whose every object is in a namespace `sees` allows. */
  list(sees: (ns: string | undefined) => boolean): AuditEntry[] {
    return this.entries.filter((e) => e.objects.every((o) => sees(o.namespace))).reverse();
  }

  /** Resolves once every line so far reached the file (tests). */
  flushed(): Promise<void> {
    return this.writing;
  }
}
