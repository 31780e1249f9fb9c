// Where the CPU worker's JS lives: dist/cli/cpuWorker.mjs under the package root (scripts/build-cli.mjs
// bundles server/isolate/worker.ts there with the CLI). Resolved from the root the runtime uses
// (MESHSCOPE_ROOT under `meshscope serve`, else the working directory), never from this module's own URL:
// under Next.js this code runs from .next/ bundles. Before the first worker starts, the build is brought up
// to date (`node scripts/build-cli.mjs --if-stale`, a child process: nothing is bundled into Next); when it
// cannot build (a read-only install), an existing bundle is used as it is.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const workerFile = (root: string): string => join(root, 'dist', 'cli', 'cpuWorker.mjs');

/** The worker file under `root`, built first when stale; rejects with why there is none. */
export function ensureWorkerFile(root: string): Promise<string> {
  const file = workerFile(root);
  const script = join(root, 'scripts', 'build-cli.mjs');
  if (!existsSync(script)) return existsSync(file) ? Promise.resolve(file) : Promise.reject(new Error(`${file} is missing`));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, '--if-stale'], { cwd: root, timeout: 120_000 }, (err, _out, stderr) => {
      if (existsSync(file)) return resolve(file);
      reject(new Error(`${file} could not be built: ${(err?.message ?? '').trim()} ${String(stderr).trim()}`.trim()));
    });
  });
}
