// The query client's bounds against a real loopback HTTP server answering as a broken or hostile
// "Prometheus" would (the real one is in traffic.test.ts): timeouts, oversized answers, answers that are
// not the API's shape, and Prometheus's own error body (its HTTP API docs: {"status":"error",…}).
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantQuery, type PrometheusError } from './client';
import { PrometheusSource } from './source';

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path.startsWith('/slow/')) return void setTimeout(() => res.end('{}'), 2000);
    if (path.startsWith('/big/'))
      return void res.end(
        `{"status":"success","data":{"resultType":"vector","result":[${'{"metric":{},"value":[1,"1"]},'.repeat(5000)}{"metric":{},"value":[1,"1"]}]}}`,
      );
    if (path.startsWith('/html/')) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
    if (path.startsWith('/matrix/')) return void res.end('{"status":"success","data":{"resultType":"matrix","result":[]}}');
    if (path.startsWith('/bad/')) return void res.writeHead(400).end('{"status":"error","errorType":"bad_data","error":"parse error"}');
    res.end('{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"b"},"value":[1700000000.1,"2.5"]}]}}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const kind = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: PrometheusError) => e.kind,
  );

describe('instantQuery', () => {
  it('reads a vector', async () => {
    expect(await instantQuery(url, 'up')).toEqual([{ metric: { a: 'b' }, value: 2.5 }]);
  });
  it('bounds: time, bytes, series; shape and API errors', async () => {
    expect(await kind(instantQuery(`${url}/slow`, 'up', { timeoutMs: 300 }))).toBe('unreachable');
    expect(await kind(instantQuery(`${url}/big`, 'up', { maxBytes: 10_000 }))).toBe('limit');
    expect(await kind(instantQuery(`${url}/big`, 'up', { maxSeries: 100 }))).toBe('limit');
    expect(await kind(instantQuery(`${url}/html`, 'up'))).toBe('unreachable');
    expect(await kind(instantQuery(`${url}/matrix`, 'up'))).toBe('unreachable');
    expect(await kind(instantQuery(`${url}/bad`, 'up'))).toBe('query');
    expect(await kind(instantQuery('http://127.0.0.1:1', 'up'))).toBe('unreachable');
  });
  it('the source: failing while unreachable, connected again when it answers (a refused query is no outage)', async () => {
    const down = new PrometheusSource('http://127.0.0.1:1');
    await down.probe();
    expect(down.status()).toMatchObject({ id: 'prometheus', kind: 'prometheus', state: 'failing', url: 'http://127.0.0.1:1' });
    expect(down.status().lastError).toContain('127.0.0.1:1');
    const up = new PrometheusSource(`${url}/bad`);
    await up.query('x').catch(() => undefined);
    expect(up.status().state).toBe('connected');
  });
});
