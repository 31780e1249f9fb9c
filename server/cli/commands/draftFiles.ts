// --draft FILE… → one draft text (documents of every file, in order) and a way back from a line of that
// text to `file:line`, so every problem and finding of `meshscope diff|check` names the file it is in.
import { readFile } from 'node:fs/promises';
import type { SandboxProblem } from '../../sandbox/types';
import { UsageError } from '../args';

/** Largest draft file read (the HTTP API's limit too). */
export const MAX_DRAFT_BYTES = 1024 * 1024;

export interface DraftFiles {
  text: string;
  /** `file:line:column` of a problem located in `text` ('' when it has no line). */
  where(p: Pick<SandboxProblem, 'line' | 'column'>): string;
}

export async function readDraftFiles(paths: readonly string[]): Promise<DraftFiles> {
  const parts: { file: string; start: number; lines: number }[] = [];
  const texts: string[] = [];
  let line = 1;
  for (const file of paths) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read --draft ${file}: ${(e as Error).message}`);
    }
    if (Buffer.byteLength(text) > MAX_DRAFT_BYTES) throw new UsageError(`--draft ${file} is larger than ${MAX_DRAFT_BYTES} bytes`);
    const body = text.endsWith('\n') ? text : `${text}\n`;
    const lines = body.split('\n').length - 1;
    parts.push({ file, start: line, lines });
    texts.push(body);
    // Each file is its own set of documents: a separator line between files.
    line += lines + 1;
  }
  return {
    text: texts.join('---\n'),
    where(p) {
      if (p.line === undefined) return '';
      const part = parts.find((x) => p.line! >= x.start && p.line! < x.start + x.lines) ?? parts[parts.length - 1];
      if (!part) return '';
      return `${part.file}:${p.line - part.start + 1}${p.column !== undefined ? `:${p.column}` : ''}`;
    },
  };
}
