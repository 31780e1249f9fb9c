// Test helper: a copy of examples/demo in a temp dir with its pods' loopback base moved (127.0.1.x →
// 127.0.BASE.x), so a test's data plane never collides with a `meshscope serve` of the demo running beside it.
// One object per file, as the sandbox's files applier needs to replace an object (server/api/apply/files.ts).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { demoMeshDir } from '../../runtime';

export function copyDemoMesh(base: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-demo-traffic-'));
  const src = demoMeshDir();
  for (const f of readdirSync(src)) {
    if (!/\.ya?ml$/.test(f)) continue;
    const text = readFileSync(join(src, f), 'utf8').replaceAll('127.0.1.', `127.0.${base}.`);
    parseAllDocuments(text).forEach((doc, i) => {
      const o = doc.toJS() as { kind?: string; metadata?: { name?: string } } | null;
      if (o?.kind) writeFileSync(join(dir, `${f.replace(/\.ya?ml$/, '')}-${i}-${o.kind}-${o.metadata?.name ?? ''}.yaml`), doc.toString());
    });
  }
  return dir;
}

/** Whether `address:port` can be bound right now (nothing else holds it). */
export function canBind(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, address, () => s.close(() => resolve(true)));
  });
}
