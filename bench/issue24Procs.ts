// The issue-24 bench's child processes: the bench server (bench/pushServer.ts) and the client processes
// (bench/clientProc.ts), both spoken to in JSON lines over stdin/stdout; and the server's counts of work.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../server/testing/paths';
import { ServerChild } from './childProc';
import { sumTraffic, type Traffic } from './clientTraffic';
import { CLIENT_BASE_FLAGS, CLIENT_FLAGS } from './issue24Env';
import type { Mode } from './issueClients';

export { ServerChild };

export interface Work {
  translations: number;
  /** Proxies served their scope's outbound part beside their own inbound resources (pipeline/scopeSharing.ts). */
  scopeShared: number;
  endpointRefreshes: number;
  clas: number;
  cpuMs: number;
  /** Of cpuMs, kernel time; the server's minor page faults; its GCs (scavenges, incremental marking steps, mark-compacts). */
  sysMs: number;
  faults: number;
  scavenges: number;
  incremental: number;
  marks: number;
  /** Streams the server reset (its stall guard). */
  resets: number;
}
export async function work(server: ServerChild): Promise<Work> {
  const reply = await server.command('stats');
  const c = reply.cache as { translations: number; endpointRefreshes: number; clasRecomputed?: number; scopeShared?: number };
  return {
    translations: c.translations,
    scopeShared: c.scopeShared ?? 0,
    endpointRefreshes: c.endpointRefreshes,
    clas: c.clasRecomputed ?? Number.NaN,
    cpuMs: reply.cpuMs as number,
    sysMs: (reply.sysMs as number | undefined) ?? 0,
    faults: (reply.minorFaults as number | undefined) ?? 0,
    scavenges: gcCount(reply, 'minor'),
    incremental: gcCount(reply, 'incremental'),
    marks: gcCount(reply, 'major'),
    resets: (reply.resets as number | undefined) ?? 0,
  };
}
const gcCount = (reply: Record<string, unknown>, kind: string): number =>
  (reply.gc as Record<string, { n: number }> | undefined)?.[kind]?.n ?? 0;
export const minus = (b: Work, a: Work): Work => ({
  translations: b.translations - a.translations,
  scopeShared: b.scopeShared - a.scopeShared,
  endpointRefreshes: b.endpointRefreshes - a.endpointRefreshes,
  clas: b.clas - a.clas,
  cpuMs: b.cpuMs - a.cpuMs,
  sysMs: b.sysMs - a.sysMs,
  faults: b.faults - a.faults,
  scavenges: b.scavenges - a.scavenges,
  incremental: b.incremental - a.incremental,
  marks: b.marks - a.marks,
  resets: b.resets - a.resets,
});
export const workText = (w: Work) =>
  `server: ${w.translations} translations, ${w.scopeShared} inbound-only beside a shared scope, CLAs refreshed for ${w.endpointRefreshes} proxies${Number.isNaN(w.clas) ? '' : ` (${w.clas} CLAs recomputed)`}, CPU ${w.cpuMs.toFixed(0)} ms (sys ${w.sysMs.toFixed(0)} ms, ${w.faults} minor faults, GC ${w.scavenges} scavenges / ${w.incremental} incremental / ${w.marks} mark-compacts)${w.resets > 0 ? `, ${w.resets} streams reset by the stall guard` : ''}`;

/** The bench's clients, split over BENCH_CLIENT_PROCS processes (bench/clientProc.ts), one controller view. */
export class ClientProcs {
  private constructor(readonly procs: ServerChild[]) {}
  static async start(clients: Array<{ id: string; namespace: string; routes: string[] }>, mode: Mode, n: number): Promise<ClientProcs> {
    const per = Math.ceil(clients.length / n);
    const procs: ServerChild[] = [];
    for (let i = 0; i < n; i++) {
      const slice = clients.slice(i * per, (i + 1) * per);
      if (slice.length === 0) break;
      // The clients run on the system allocator whatever the server's (BENCH_ALLOCATOR concerns the server).
      const env: NodeJS.ProcessEnv = { ...process.env, BENCH_MODE: mode };
      delete env.LD_PRELOAD;
      const proc = spawn(
        process.execPath,
        [...CLIENT_BASE_FLAGS, ...CLIENT_FLAGS, '--import', 'tsx', join(REPO_ROOT, 'bench', 'clientProc.ts')],
        {
          env,
          stdio: ['pipe', 'pipe', 'inherit'],
        },
      );
      const child = new ServerChild(proc);
      await child.command('init', { clients: slice });
      procs.push(child);
    }
    return new ClientProcs(procs);
  }
  private async all(cmd: string, args: Record<string, unknown> = {}): Promise<Array<Record<string, unknown>>> {
    return Promise.all(this.procs.map((p) => p.command(cmd, args)));
  }
  /** Connects every client; when each was in sync (wall clock) and how many streams were opened again. */
  async connect(port: number): Promise<{ synced: number[]; retries: number; traffic: Traffic | undefined }> {
    const r = await this.all('connect', { port });
    return {
      synced: r.flatMap((x) => x.synced as number[]),
      retries: r.reduce((n, x) => n + (x.retries as number), 0),
      traffic: sumTraffic(r.map((x) => x.traffic as Traffic)),
    };
  }
  async clear(): Promise<void> {
    await this.all('clear');
  }
  /** Waits until every client of `namespace` got `typeUrl`; each one's first arrival (NaN: none). */
  async wait(typeUrl: string, namespace: string, timeoutMs = 120_000): Promise<number[]> {
    const r = await this.all('wait', { typeUrl, namespace, timeoutMs });
    return r.flatMap((x) => (x.at as Array<number | null>).map((v) => v ?? Number.NaN));
  }
  async received(namespace: string, typeUrl: string): Promise<{ others: number; notOfType: number }> {
    const r = await this.all('received', { namespace, typeUrl });
    return { others: r.reduce((n, x) => n + (x.others as number), 0), notOfType: r.reduce((n, x) => n + (x.notOfType as number), 0) };
  }
  async dropped(timeoutMs: number): Promise<void> {
    await this.all('dropped', { timeoutMs });
  }
  async quit(): Promise<void> {
    await Promise.all(this.procs.map((p) => p.quit()));
  }
}
