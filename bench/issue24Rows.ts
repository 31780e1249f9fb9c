// The issue-24 bench's table rows: a push run's figures beside their goals and anchors, and the CLI rows
// (`translate --type all` sidecar / gateway, `simulate`, `analyze`, whole process, on the multi-document files).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../server/testing/paths';
import { trafficText } from './clientTraffic';
import { type IssueMesh, podName, writeIssueMesh } from './issueMesh';
import type { ProfileSummary } from './profile';
import { type BenchRow, load1, median } from './table';
import { big, N, K, LATER_S, ALLOC, memText } from './issue24Env';
import { workText } from './issue24Procs';
import type { PushFigures, PushPhase } from './issue24Push';

const goals = big ? { first: 10_000, vs: 1000, eds: 300 } : { first: 3000, vs: 500, eds: 200 };

/** The timed phases whose row missed its goal (their profiles come from a second, profiled run: issue24Push.ts). */
export function missedPhases(f: PushFigures): PushPhase[] {
  const missed: Array<[PushPhase, boolean]> = [
    ['connect', f.firstAll > goals.first],
    ['vs', median(f.vs) > goals.vs],
    ['eds', f.edsP99 > goals.eds],
    ['reconnect', !big && f.reconnect > 3000], // no goal at 5×
  ];
  return missed.filter(([, m]) => m).map(([p]) => p);
}

/** The phases whose row missed in most runs, i.e. whose median row misses (an odd count of runs). */
export function missedByMedian(runs: readonly PushFigures[]): PushPhase[] {
  const counts = new Map<PushPhase, number>();
  for (const f of runs) for (const p of missedPhases(f)) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > runs.length / 2).map(([p]) => p);
}

/**
 * Each row the median of the runs' (the same rows, in the same order: pushRows of one shape and mode), its detail the
 * runs' values and the median run's detail; a row whose median misses gets its profile from `profiled` (pushRows of
 * a second, profiled run, with `anyProfile`).
 */
export function medianRows(runs: readonly BenchRow[][], profiled?: readonly BenchRow[]): BenchRow[] {
  if (runs.length === 1) return runs[0]!.map((r, i) => withProfile(r, profiled?.[i]));
  return runs[0]!.map((first, i) => {
    const all = runs.map((rows) => rows[i]!);
    // A figure a run could not measure (NaN) sorts last: the median of the measured ones when most were.
    const at = [...all].sort((a, b) => (Number.isNaN(a.value) ? 1 : Number.isNaN(b.value) ? -1 : a.value - b.value))[
      Math.floor(all.length / 2)
    ]!;
    const values = all.map((r) => (Math.abs(r.value) >= 100 ? r.value.toFixed(0) : r.value.toFixed(2))).join(', ');
    return withProfile(
      {
        ...at,
        figure: first.figure,
        profile: undefined,
        detail: `median of ${all.length} runs (${values} ${first.unit}); that run: ${at.detail ?? ''}`,
      },
      profiled?.[i],
    );
  });
}

const withProfile = (r: BenchRow, p: BenchRow | undefined): BenchRow => {
  const { profile: _drop, ...rest } = r;
  return p?.profile && r.goal !== undefined && r.value > r.goal ? { ...rest, profile: p.profile } : rest;
};

/** A push run's rows; each row that missed gets its phase's profile (`anyProfile`: each row whose phase has one). */
export function pushRows(f: PushFigures, anyProfile = false): BenchRow[] {
  const size = `N=${N}, K=${K}, ${f.shape}, ${f.mode === 'sotw' ? 'SotW' : 'Delta'}`;
  const load = load1();
  const row = (r: Omit<BenchRow, 'load' | 'size'>, miss: boolean, profile?: ProfileSummary): BenchRow => ({
    ...r,
    size,
    load,
    ...((miss || anyProfile) && profile ? { profile } : {}),
  });
  const vs = median(f.vs);
  const perClient = ((f.rss.with - f.rss.idle) * 1024) / K;
  const leave = (100 * (f.rss.after - f.rss.idle)) / f.rss.idle;
  const later = (100 * (f.rss.later - f.rss.idle)) / f.rss.idle;
  return [
    row(
      {
        figure: 'all K distinct-pod clients ACK their first config',
        value: f.firstAll,
        unit: 'ms',
        goal: goals.first,
        detail: `p50 ${f.firstP50.toFixed(0)} ms; streams ended before in sync and opened again: ${f.connectRetries}; ${workText(f.connect)}; before it, the scopes' warm-up: ${f.warmup.state}, ${f.warmup.scopes} scopes in ${f.warmup.ms.toFixed(0)} ms (server CPU from ready ${f.warmup.cpuMs.toFixed(0)} ms)${f.connectTraffic ? `; ${trafficText(f.connectTraffic)}` : ''}`,
      },
      f.firstAll > goals.first,
      f.profiles.connect,
    ),
    row(
      {
        figure: 'edit one VS → last affected client ACKs',
        value: vs,
        unit: 'ms',
        goal: goals.vs,
        anchor: { value: 1000, text: 'istio "< 1 s in most cases"' },
        detail: `${f.vs.map((x) => x.toFixed(0)).join(', ')} ms; snapshot event at ${f.vsEventMs.toFixed(0)} ms (push planned, live event made at ${f.vsLiveMs.toFixed(0)} ms); ${f.vsAffected} affected clients, ${f.vsOthersSent} others sent anything; last round ${workText(f.vsWork)}`,
      },
      vs > goals.vs,
      f.profiles.vs,
    ),
    row(
      {
        figure: 'pod IP change → EDS on the wire, p99',
        value: f.edsP99,
        unit: 'ms',
        goal: goals.eds,
        anchor: { value: 100, text: 'istiod 100 ms debounce floor' },
        detail: `p50 ${f.edsP50.toFixed(0)} ms over ${f.edsClients} watching clients; non-EDS responses ${f.edsNonEds}; the bench's write of the file took ${f.edsWriteMs.toFixed(0)} ms (p99 from its end ${(f.edsP99 - f.edsWriteMs).toFixed(0)} ms); snapshot event at ${f.edsEventMs.toFixed(0)} ms (push planned, live event made at ${f.edsLiveMs.toFixed(0)} ms), all: ${String(f.edsAll ?? false)}; ${workText(f.edsWork)}`,
      },
      f.edsP99 > goals.eds,
      f.profiles.eds,
    ),
    row(
      {
        figure: 'K clients in sync again after a server-side drop',
        value: f.reconnect,
        unit: 'ms',
        goal: big ? undefined : 3000,
        detail: `from the drop to the last client's ACK of all four types (fresh channels); streams opened again: ${f.reconnectRetries}; ${workText(f.reconnectWork)}${f.reconnectTraffic ? `; ${trafficText(f.reconnectTraffic)}` : ''}`,
      } as Omit<BenchRow, 'load' | 'size'>,
      f.reconnect > 3000,
      f.profiles.reconnect,
    ),
    row(
      {
        figure: 'server RSS per connected client',
        value: perClient,
        unit: 'kB',
        goal: 250,
        anchor: { value: 750, text: 'istiod 1.5 GB / 2,000 sidecars' },
        detail: `RSS idle ${f.rss.idle.toFixed(0)} MiB → ${f.rss.with.toFixed(0)} MiB with clients → ${f.rss.after.toFixed(0)} MiB 2 s after they left → ${f.rss.later.toFixed(0)} MiB ${LATER_S} s after; ${ALLOC}; with clients: ${memText(f.mem.with)}`,
      },
      false,
    ),
    row(
      {
        figure: 'server RSS after clients leave, vs idle',
        value: later,
        unit: '%',
        goal: 10,
        detail: `${LATER_S} s after the last client left; 2 s after: ${leave.toFixed(1)} %; idle: ${memText(f.mem.idle)}; 2 s after: ${memText(f.mem.after)}; ${LATER_S} s after: ${memText(f.mem.later)}`,
      },
      false,
    ),
    ...(big
      ? [
          row(
            {
              figure: 'whole server RSS with the K clients',
              value: f.rss.with,
              unit: 'MiB',
              goal: 1536,
              anchor: { value: 1536, text: 'istiod 1.5 GB (1,000 services, 2,000 sidecars)' },
              detail: ALLOC,
            },
            false,
          ),
        ]
      : []),
  ];
}

const BIN = join(REPO_ROOT, 'bin', 'meshscope.mjs');

function timeCli(args: string[], reps = 3): { ms: number; cpuMs: number } {
  const times: number[] = [];
  const cpus: number[] = [];
  for (let r = 0; r < reps + 1; r++) {
    const t0 = performance.now();
    const res = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, BIN, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 30,
    });
    const t = performance.now() - t0;
    if (res.status !== 0 && !(args[0] === 'analyze' && res.status === 1))
      throw new Error(`meshscope ${args.join(' ')} exited ${res.status}: ${String(res.stderr).slice(0, 400)}`);
    const [u, s] = String(res.stderr).trim().split('\n').pop()!.split(' ').map(Number);
    if (r > 0) {
      times.push(t);
      cpus.push(((u ?? Number.NaN) + (s ?? Number.NaN)) * 1000);
    }
  }
  return { ms: median(times), cpuMs: median(cpus) };
}

export function cliRows(mesh: IssueMesh): BenchRow[] {
  const d = writeIssueMesh(mesh, 'multidoc');
  const sidecar = `${podName(1, 'v1').pod}.ns-1`;
  const gateway = 'istio-ingressgateway-7d9f8c6b5-gw001.istio-system';
  const size = `N=${mesh.services}, 7 multi-document files`;
  const rows: BenchRow[] = [];
  const add = (figure: string, args: string[], goal: number) => {
    const t = timeCli(args);
    rows.push({
      figure,
      size,
      value: t.ms,
      unit: 'ms',
      goal,
      detail: `whole process, median of 3; CPU (user+sys) ${t.cpuMs.toFixed(0)} ms`,
      load: load1(),
    });
  };
  try {
    add('CLI `translate --type all`, one sidecar', ['translate', '--config', d.dir, '--proxy', sidecar, '--type', 'all'], 1000);
    add('CLI `translate --type all`, the gateway', ['translate', '--config', d.dir, '--proxy', gateway, '--type', 'all'], 1500);
    add(
      'CLI `simulate` (sidecar → svc-2)',
      ['simulate', '--config', d.dir, '--proxy', sidecar, '--mode', 'outbound', '--port', '8080', '--host', 'svc-2.ns-2.svc.cluster.local'],
      1000,
    );
    add('CLI `analyze`', ['analyze', '--config', d.dir, '-o', 'json'], 2000);
  } finally {
    rmSync(d.dir, { recursive: true, force: true });
  }
  return rows;
}
