// Apply on a file source: each draft object is written as one YAML file into the watched directory
// (`<kind>-<namespace>-<name>.yaml`), atomically (temp file + rename); the watcher then loads it like any
// edit. An object the live config already has in a file of its own is written to that file; one defined in
// a file together with other objects is refused (meshscope never rewrites a user's multi-document file).
// A deletion removes the object's file only when that file holds nothing else.
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { objectKey } from '../../model/schema/kinds';
import { parseStoreKey } from '../../impact/affected';
import type { DraftEdit } from '../../sandbox/types';
import { rawKey } from '../../sources/storeKeys';
import type { RawInput } from '../../sources/types';
import { type Applier, type ApplyItem, type ApplyOutcome, describeEdit } from './types';

const safe = (s: string) => s.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');

/** The first --config path that is a directory: where new objects are written. */
export function watchedDirectory(paths: readonly string[]): string | undefined {
  for (const p of paths) {
    try {
      if (statSync(p).isDirectory()) return resolve(p);
    } catch {
      // missing paths are the file source's problem
    }
  }
  return undefined;
}

function documentsIn(file: string): number {
  try {
    return parseAllDocuments(readFileSync(file, 'utf8')).filter((d) => d.contents !== null).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

interface Step {
  item: ApplyItem;
  run?: () => void;
}

export class FilesApplier implements Applier {
  readonly mode = 'files' as const;

  constructor(
    private readonly dir: string | undefined,
    private readonly liveInputs: () => readonly RawInput[],
  ) {}

  private liveFileOf(edit: DraftEdit): string[] {
    const keys =
      edit.op === 'put'
        ? [rawKey(edit.object)]
        : edit.ref.apiVersion
          ? [objectKey(edit.ref.apiVersion, edit.ref.kind, edit.ref.namespace, edit.ref.name)]
          : undefined;
    const files: string[] = [];
    for (const i of this.liveInputs()) {
      const k = rawKey(i.object);
      if (!k || !i.origin.file) continue;
      const p = parseStoreKey(k);
      const hit = keys
        ? keys.includes(k)
        : edit.op === 'delete' && p?.kind === edit.ref.kind && p.namespace === edit.ref.namespace && p.name === edit.ref.name;
      if (hit) files.push(i.origin.file);
    }
    return files;
  }

  private steps(edits: readonly DraftEdit[]): { steps: Step[]; refused: boolean } {
    const steps: Step[] = [];
    let refused = false;
    const refuse = (item: ApplyItem, message: string) => {
      refused = true;
      steps.push({ item: { ...item, ok: false, message } });
    };
    for (const e of edits) {
      const item: ApplyItem = { op: e.op, object: describeEdit(e) };
      const existing = this.liveFileOf(e);
      const shared = existing.find((f) => documentsIn(f) !== 1);
      if (shared) {
        refuse(item, `defined in ${shared} together with other objects: edit that file instead`);
        continue;
      }
      if (e.op === 'delete') {
        const file = existing[0];
        if (!file) {
          refuse(item, 'not defined in any watched file');
          continue;
        }
        steps.push({ item: { ...item, file }, run: () => unlinkSync(file) });
        continue;
      }
      const file =
        existing[0] ??
        (this.dir
          ? join(this.dir, `${safe(String(e.object.kind))}-${safe(describeEdit(e).split(' ')[1]?.replace('/', '-') ?? '')}.yaml`)
          : undefined);
      if (!file) {
        refuse(item, 'no watched directory: start serve with --config DIR to apply new objects');
        continue;
      }
      const text = `# written by meshscope's sandbox apply\n${stringify(e.object)}`;
      steps.push({
        item: { ...item, file },
        run: () => {
          const tmp = join(this.dir ?? resolve(file, '..'), `.${basename(file)}.meshscope-tmp`);
          writeFileSync(tmp, text);
          renameSync(tmp, file);
        },
      });
    }
    return { steps, refused };
  }

  async plan(edits: readonly DraftEdit[]): Promise<ApplyOutcome> {
    const { steps, refused } = this.steps(edits);
    return {
      mode: this.mode,
      applied: false,
      items: steps.map((s) => s.item),
      ...(refused ? { message: 'some objects cannot be applied to files' } : {}),
    };
  }

  async apply(edits: readonly DraftEdit[]): Promise<ApplyOutcome> {
    const { steps, refused } = this.steps(edits);
    if (refused)
      return {
        mode: this.mode,
        applied: false,
        items: steps.map((s) => s.item),
        message: 'nothing written: some objects cannot be applied to files',
      };
    const items: ApplyItem[] = [];
    for (const s of steps) {
      try {
        s.run?.();
        items.push({ ...s.item, ok: true });
      } catch (e) {
        items.push({ ...s.item, ok: false, message: (e as Error).message });
      }
    }
    return { mode: this.mode, applied: items.every((i) => i.ok), items };
  }
}
