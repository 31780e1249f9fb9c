// Test code only: a real Prometheus (scripts/prometheus.mjs finds the binary) on 127.0.0.1, a free port,
// a temp TSDB and the given scrape config; stopped by its PID. When no binary can be had the test files
// that call startPrometheus() are left out and reported `not run: no Prometheus` (vitest.config.ts);
// with MESHSCOPE_REQUIRE_PROMETHEUS=1 (CI) they run and fail here, loudly.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPrometheus, PROMETHEUS_NOT_RUN } from '../../scripts/prometheus.mjs';

export interface RunningPrometheus {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  pid: number;
  /** Kills the process (SIGTERM, then SIGKILL) and waits for it; the TSDB stays for restart(). */
  stop(): Promise<void>;
  /** Starts it again on the same port and TSDB (an outage and its recovery). */
  restart(): Promise<void>;
  /** stop() and remove the temp directory. */
  close(): Promise<void>;
}

function binaries() {
  const p = findPrometheus();
  if (!p) throw new Error(`${PROMETHEUS_NOT_RUN}: run \`node scripts/prometheus.mjs\` (apt-get download prometheus) or set PROMETHEUS_BIN`);
  return p;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ready(url: string, child: ChildProcess, budgetMs: number): Promise<boolean> {
  const until = Date.now() + budgetMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) return false;
    try {
      const r = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return true;
    } catch {
      // not yet listening
    }
    await sleep(100);
  }
  return false;
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => child.pid && process.kill(child.pid, 'SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    if (child.pid) process.kill(child.pid, 'SIGTERM');
  });
}

/**
 * Starts Prometheus with `scrapeConfigs` (the YAML list under `scrape_configs:`, as a string) and a global
 * scrape interval (default 1 s). Retries on another port when the chosen one was taken meanwhile.
 */
export async function startPrometheus(
  scrapeConfigs: string,
  o: { scrapeInterval?: string; readyMs?: number } = {},
): Promise<RunningPrometheus> {
  const bin = binaries().prometheus;
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-prometheus-'));
  const interval = o.scrapeInterval ?? '1s';
  writeFileSync(
    join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: ${interval}\n  evaluation_interval: ${interval}\nscrape_configs:\n${scrapeConfigs}\n`,
  );
  let child: ChildProcess | undefined;
  let port = 0;
  let stderr = '';
  const launch = async (p: number): Promise<boolean> => {
    stderr = '';
    child = spawn(
      bin,
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${p}`,
        '--storage.tsdb.retention.time=1h',
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4000)));
    const ok = await ready(`http://127.0.0.1:${p}`, child, o.readyMs ?? 20_000);
    if (!ok) await kill(child);
    return ok;
  };
  for (let attempt = 0; attempt < 3 && port === 0; attempt++) {
    const p = await freePort();
    if (await launch(p)) port = p;
  }
  if (port === 0 || !child?.pid) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Prometheus (${bin}) did not become ready: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  const out: RunningPrometheus = {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    stop: async () => {
      if (child) await kill(child);
    },
    restart: async () => {
      if (child) await kill(child);
      if (!(await launch(port))) throw new Error(`Prometheus did not restart on ${port}: ${stderr.trim()}`);
      out.pid = child?.pid ?? 0;
    },
    close: async () => {
      if (child) await kill(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return out;
}

/** `promtool check metrics` on an exposition: its exit status and the lint lines it printed. */
export function promtoolCheckMetrics(exposition: string): { status: number; lines: string[] } {
  const tool = binaries().promtool;
  if (!tool) throw new Error(`${PROMETHEUS_NOT_RUN}: promtool is not beside the prometheus binary (set PROMTOOL_BIN)`);
  const r = spawnSync(tool, ['check', 'metrics'], { input: exposition, encoding: 'utf8', timeout: 30_000 });
  const lines = `${r.stdout ?? ''}${r.stderr ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return { status: r.status ?? 1, lines };
}

/** GET /api/v1/query on a running Prometheus (tests: Kiali's own PromQL, asserted beside meshscope's answer). */
export async function instantQuery(url: string, query: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const r = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query })}`, { signal: AbortSignal.timeout(10_000) });
  const body = (await r.json()) as {
    status: string;
    data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
    error?: string;
  };
  if (body.status !== 'success') throw new Error(`query failed: ${body.error}`);
  return body.data?.result ?? [];
}

/** Polls an async condition every 250 ms until it holds (throws naming `what` after `timeoutMs`). */
export async function eventually(cond: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await cond().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** `promtool check config FILE`: exit status and output. */
export function promtoolCheckConfig(file: string): { status: number; output: string } {
  const tool = binaries().promtool;
  if (!tool) throw new Error(`${PROMETHEUS_NOT_RUN}: promtool is not beside the prometheus binary (set PROMTOOL_BIN)`);
  const r = spawnSync(tool, ['check', 'config', file], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status ?? 1, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}
