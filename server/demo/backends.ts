// The demo's pod servers: one gRPC server per loopback pod, bound to the pod's own IP on each of its
// container ports, answering the echo service with the pod's name and version. A bind failure is kept as
// the backend's state (shown by /api/demo/traffic and the source status), never thrown.
import * as grpc from '@grpc/grpc-js';
import type { EchoReply, EchoRequest, EchoService } from './echoService';
import type { BackendPlan } from './plan';

export interface RunningBackend {
  plan: BackendPlan;
  /** IP:port for each bound port. */
  bound: string[];
  error?: string;
  stop(): Promise<void>;
}

const bind = (server: grpc.Server, address: string) =>
  new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
  );

/** A call this pod served: the caller's pod id (the request's `source`), the `:authority` it dialled, the time taken. */
export type OnServed = (served: { pod: string; caller: string; authority: string; latencyMs: number }) => void;

export async function startBackend(plan: BackendPlan, echo: EchoService, onServed?: OnServed): Promise<RunningBackend> {
  const server = new grpc.Server();
  server.addService(echo.definition, {
    Echo: (call: grpc.ServerUnaryCall<EchoRequest, EchoReply>, cb: grpc.sendUnaryData<EchoReply>) => {
      const started = performance.now();
      cb(null, { pod: plan.pod, namespace: plan.namespace, version: plan.version, app: plan.app, address: plan.ip });
      onServed?.({ pod: plan.id, caller: call.request?.source ?? '', authority: call.getHost(), latencyMs: performance.now() - started });
    },
  });
  const bound: string[] = [];
  const errors: string[] = [];
  for (const port of plan.ports) {
    const address = `${plan.ip}:${port}`;
    try {
      await bind(server, address);
      bound.push(address);
    } catch (e) {
      errors.push(`${address}: ${(e as Error).message}`);
    }
  }
  const out: RunningBackend = {
    plan,
    bound,
    // Clients may hold connections: forced, so no port stays bound after stop.
    stop: async () => server.forceShutdown(),
  };
  if (errors.length) out.error = `pod ${plan.id} could not listen on ${errors.join('; ')}`;
  return out;
}
