// The hostile-load bench's server process (bench/hostile.ts): the runtime exactly as `meshscope serve` builds it
// (file source watching a directory, store, ADS on 127.0.0.1:0, the CPU pool) behind a node:http server that
// routes the three endpoints the bench drives to the same handlers the Next.js route adapters call:
// GET /api/healthz (server/api/debug healthz), POST /api/simulate and POST /api/sandbox/evaluate (rt.cpu).
// Prints one JSON line {"event":"ready","http":…,"ads":…,"proxies":[…]}; exits on stdin "quit".
import { createServer, type IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { healthz } from '../server/api/debug';
import { maxBodyBytes } from '../server/api/runtimeConfig';
import { createRuntimeForTest } from '../server/runtime';

const dir = process.env.BENCH_DIR;
if (!dir) throw new Error('BENCH_DIR is required');
const rt = createRuntimeForTest({ config: [dir], xdsPort: 0 }, { log: () => undefined });
await rt.ready;
const xds = await rt.xdsSettled;
const limit = maxBodyBytes(rt.config);

async function body(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new Error('too large');
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const server = createServer((req, res) => {
  const send = (status: number, json: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(json);
  };
  if (req.method === 'GET' && req.url === '/api/healthz') {
    const h = healthz(rt.context());
    return send(h.status, JSON.stringify(h.body));
  }
  const kind = req.url === '/api/simulate' ? 'simulate' : req.url === '/api/sandbox/evaluate' ? 'evaluate' : undefined;
  if (req.method !== 'POST' || !kind) return send(404, '{"error":"not found"}');
  body(req).then(
    async (b) => {
      const a = await rt.cpu.run(kind, b);
      send(a.status, a.json, a.headers);
    },
    (e: Error) => send(e.message === 'too large' ? 413 : 400, JSON.stringify({ error: e.message })),
  );
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const addr = server.address();
const snap = rt.snapshot();
process.stdout.write(
  `${JSON.stringify({
    event: 'ready',
    http: typeof addr === 'object' && addr ? addr.port : 0,
    ads: xds.state === 'listening' ? xds.port : 0,
    proxies: snap.proxies.map((p) => ({ id: p.id, type: p.type, namespace: p.namespace })),
  })}\n`,
);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.includes('stats')) process.stdout.write(`${JSON.stringify({ reply: 'stats', pool: rt.cpu.stats() })}\n`);
  if (line.includes('quit')) break;
}
server.close();
await rt.stop();
process.exit(0);
