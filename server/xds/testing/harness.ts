// Test harness: an AdsServer on 127.0.0.1:0 with a switchable generator and a raw test client.
import { AdsServer, type AdsServerOptions } from '../server';
import type { AdsLimits } from '../limits';
import { AdsTestClient } from './adsTestClient';
import { SwitchableGenerator } from './fixtures';

export interface Harness {
  server: AdsServer;
  gen: SwitchableGenerator;
  client: AdsTestClient;
  port: number;
  logs: string[];
  close(): Promise<void>;
}

export async function startHarness(
  opts: { maxResponseBytes?: number; debounceMs?: number; nackLogRate?: AdsServerOptions['nackLogRate'] } & Partial<AdsLimits> = {},
): Promise<Harness> {
  const { maxResponseBytes, debounceMs, nackLogRate, ...limits } = opts;
  const gen = new SwitchableGenerator();
  const logs: string[] = [];
  const server = new AdsServer({
    generator: gen,
    log: (l) => logs.push(l),
    debounceMs: debounceMs ?? 5,
    maxDebounceMs: 1_000,
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
    ...(nackLogRate ? { nackLogRate } : {}),
    limits,
  });
  const port = await server.start(0, '127.0.0.1');
  const client = new AdsTestClient(port);
  return {
    server,
    gen,
    client,
    port,
    logs,
    async close() {
      client.close();
      await server.stop();
    },
  };
}

export const SIDECAR = {
  id: 'sidecar~10.0.0.1~productpage-v1-abc.default~default.svc.cluster.local',
  metadata: { NAMESPACE: 'default', CLUSTER_ID: 'Kubernetes' },
};
