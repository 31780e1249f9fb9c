// A tiny gRPC echo backend for data-plane tests: a generic unary method whose reply is the backend's
// name, so a test can count where each RPC went. Raw bytes in and out (no .proto needed).
import * as grpc from '@grpc/grpc-js';

export const ECHO_PATH = '/meshscope.echo.Echo/Echo';

const raw = (b: Buffer): Buffer => b;

const echoService = {
  Echo: {
    path: ECHO_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: raw,
    requestDeserialize: raw,
    responseSerialize: raw,
    responseDeserialize: raw,
  },
} satisfies grpc.ServiceDefinition;

export interface EchoBackend {
  name: string;
  port: number;
  stop(): void;
}

/** Starts an echo backend on 127.0.0.1:0 that answers every call with `name`. */
export async function startEchoBackend(name: string): Promise<EchoBackend> {
  const server = new grpc.Server();
  server.addService(echoService, {
    Echo: (_call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => cb(null, Buffer.from(name)),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { name, port, stop: () => server.forceShutdown() };
}

/** One echo call on `client`; resolves with the answering backend's name. */
export function callEcho(client: grpc.Client, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(ECHO_PATH, raw, raw, Buffer.from('ping'), { deadline: Date.now() + timeoutMs }, (err, res) => {
      if (err) reject(err);
      else resolve(res!.toString());
    });
  });
}

/** `n` calls, at most `parallel` in flight; returns counts by backend name. */
export async function countCalls(client: grpc.Client, n: number, parallel = 20): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const who = await callEcho(client);
      counts[who] = (counts[who] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return counts;
}

/** Polls `cond` every 20 ms until it holds; rejects after `timeoutMs` with `what`. */
export async function waitFor(cond: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
