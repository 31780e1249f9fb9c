// installTree (scripts/installTree.mjs, used by gen-proto.mjs for server/gen): a process reading the tree while it
// is replaced again and again sees every file whole — its old or its new version, never missing or cut short
// (issue #25: `npm install` regenerating under a running `meshscope serve`). The reader is a real second process.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDirBeside, installTree } from './installTree.mjs';

const root = mkdtempSync(join(tmpdir(), 'meshscope-install-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const FILES = ['registry.ts', 'a/one_pb.ts', 'a/b/two_pb.ts', 'c/three_pb.ts', '.stamp'];
/** A file of version v: a header, 256 KiB of body, an end marker (a cut-short file lacks the marker). */
const content = (f: string, v: number) => `// ${f} v${v}\n${'x'.repeat(256 * 1024)}\n// end ${f}\n`;

function writeVersion(dir: string, v: number) {
  for (const f of FILES) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), content(f, v));
  }
}

// The reader: reads every file until `stop` exists; counts reads and files seen missing or incomplete.
const READER = `
const { readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const [dir, stop, files] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3])];
let reads = 0, bad = [];
while (!existsSync(stop)) {
  for (const f of files) {
    let t;
    try { t = readFileSync(join(dir, f), 'utf8'); } catch (e) { bad.push(f + ' ' + e.code); continue; }
    reads++;
    if (!t.startsWith('// ' + f + ' v') || !t.endsWith('// end ' + f + '\\n')) bad.push(f + ' partial');
  }
}
process.stdout.write(JSON.stringify({ reads, bad: bad.slice(0, 5), badCount: bad.length }));
`;

describe('installTree', () => {
  it('a concurrent reader never sees a file missing or half-written over 30 replacements', async () => {
    const out = join(root, 'gen');
    const first = buildDirBeside(out);
    writeVersion(first, 0);
    installTree(first, out, { last: ['registry.ts', '.stamp'] });
    const stop = join(root, 'stop');
    const reader = spawn(process.execPath, ['-e', READER, out, stop, JSON.stringify(FILES)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    reader.stdout.on('data', (d) => (stdout += d));
    const done = new Promise<void>((r) => reader.on('close', () => r()));
    for (let v = 1; v <= 30; v++) {
      const tmp = buildDirBeside(out);
      writeVersion(tmp, v);
      installTree(tmp, out, { last: ['registry.ts', '.stamp'] });
      await new Promise((r) => setTimeout(r, 5));
    }
    writeFileSync(stop, '');
    await done;
    const r = JSON.parse(stdout) as { reads: number; bad: string[]; badCount: number };
    expect(r.bad).toEqual([]);
    expect(r.reads).toBeGreaterThan(0);
    // The last version is in place and no build directory is left beside it.
    for (const f of FILES) expect(existsSync(join(out, f))).toBe(true);
    expect(readdirSync(root).filter((n) => n.startsWith('.gen-tmp-'))).toEqual([]);
  }, 60_000);

  it('files the new tree no longer has are removed, after the others are in', () => {
    const out = join(root, 'gen2');
    const a = buildDirBeside(out);
    writeVersion(a, 1);
    writeFileSync(join(a, 'old_pb.ts'), 'old');
    installTree(a, out);
    const b = buildDirBeside(out);
    writeVersion(b, 2);
    installTree(b, out);
    expect(existsSync(join(out, 'old_pb.ts'))).toBe(false);
    expect(existsSync(join(out, 'a', 'b', 'two_pb.ts'))).toBe(true);
  });

  it('leftovers of an interrupted build beside the tree are cleared by the next build', () => {
    const out = join(root, 'gen3');
    mkdirSync(join(root, '.gen3-tmp-99999', 'x'), { recursive: true });
    const d = buildDirBeside(out);
    expect(existsSync(join(root, '.gen3-tmp-99999'))).toBe(false);
    expect(existsSync(d)).toBe(true);
  });
});
