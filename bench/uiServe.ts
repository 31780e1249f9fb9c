// Shared by the scale e2e spec and `npm run bench` (its UI figures): write a synthetic mesh
// (bench/generateMesh.ts) to a directory of YAML and run `meshscope serve` on it on free ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { generateMesh, type SyntheticMeshOptions } from './generateMesh';

/** Services for a sidecar with ≥ 10,000 clusters: each service gives outbound `||`, `|v1|` and `|v2|`. */
export const SERVICES_FOR_10K_CLUSTERS = 3334;

/**
 * Writes generateMesh's objects as YAML: every service with its Service, two Deployments (v1, v2: one pod
 * each, so 2 × services proxies), DestinationRule and VirtualService. `workloads` keeps the Deployments of
 * only the first N services (default: all — thousands of proxies, each seeing every service).
 */
export function writeSyntheticMesh(
  services: number,
  opts: { workloads?: number; dir?: string; mesh?: Omit<SyntheticMeshOptions, 'services'> } = {},
): string {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'meshscope-scale-'));
  const workloads = opts.workloads ?? services;
  mkdirSync(dir, { recursive: true });
  const keep = (o: { kind?: unknown; metadata?: unknown }) => {
    if (o.kind !== 'Deployment') return true;
    const name = String((o.metadata as { name?: unknown } | undefined)?.name ?? '');
    const m = /^svc-(\d+)-/.exec(name);
    return m !== null && Number(m[1]) < workloads;
  };
  const docs = generateMesh({ ...opts.mesh, services })
    .map((i) => i.object as { kind?: unknown; metadata?: unknown })
    .filter(keep)
    .map((o) => stringify(o));
  // One file per 500 objects keeps each file a realistic size for the file source.
  for (let i = 0; i < docs.length; i += 500)
    writeFileSync(join(dir, `mesh-${String(i / 500).padStart(3, '0')}.yaml`), docs.slice(i, i + 500).join('---\n'));
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

export interface Served {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `meshscope serve --config DIR` on free ports; resolves when /api/healthz answers with the first snapshot.
 * `distDir`: the Next build directory to use (MESHSCOPE_DIST_DIR). Started while other servers run from
 * a build, give it its own: serve rebuilds a stale build in place, which would pull the chunks from
 * under the running servers.
 */
export async function serveDir(
  dir: string,
  opts: { root?: string; timeoutMs?: number; distDir?: string; log?: (s: string) => void } = {},
): Promise<Served> {
  const root = opts.root ?? resolve(process.cwd());
  const port = await freePort();
  const xds = await freePort();
  const child = spawn(
    process.execPath,
    ['bin/meshscope.mjs', 'serve', '--port', String(port), '--xds-port', String(xds), '--config', dir],
    {
      cwd: root,
      env: { ...process.env, ...(opts.distDir ? { MESHSCOPE_DIST_DIR: opts.distDir } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: stop() ends serve and its `next start` child, nothing else
    },
  );
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-4000);
    opts.log?.(b.toString());
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 420_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`meshscope serve exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/healthz`);
      if (res.ok) {
        const h = (await res.json()) as { proxies: number };
        if (h.proxies > 0) return { url, child, stop };
      }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`meshscope serve did not become ready at ${url}:\n${output}`);
}

/**
 * A proxy of the generated mesh whose sidecar sees every service (no Sidecar scoping in generateMesh), with
 * its cluster count. The list does not translate thousands of proxies: the count is asked for that one
 * proxy (`/api/proxies?counts=ID`, what the proxies page does for the rows it shows).
 */
export async function firstProxy(url: string): Promise<{ id: string; clusters: number; proxies: number }> {
  const body = (await (await fetch(`${url}/api/proxies`)).json()) as { proxies: Array<{ id: string; counts?: { clusters: number } }> };
  const p = body.proxies[0];
  if (!p) throw new Error('no proxies in the generated mesh');
  if (p.counts) return { id: p.id, clusters: p.counts.clusters, proxies: body.proxies.length };
  const res = (await (await fetch(`${url}/api/proxies?counts=${encodeURIComponent(p.id)}`)).json()) as {
    counts: Record<string, { counts: { clusters: number } }>;
  };
  const c = res.counts[p.id];
  if (!c) throw new Error(`no counts for ${p.id}`);
  return { id: p.id, clusters: c.counts.clusters, proxies: body.proxies.length };
}
