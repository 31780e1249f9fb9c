// The test Prometheus itself (issue #23 §4): the real binary starts on loopback with a temp TSDB, scrapes
// a target, answers /api/v1/query, goes away when stopped (by PID) and comes back on restart; promtool
// rejects a malformed exposition. Nothing here is mocked.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, instantQuery, promtoolCheckMetrics, type RunningPrometheus, startPrometheus } from './prometheus';

let target: Server;
let targetPort = 0;
let prom: RunningPrometheus;

beforeAll(async () => {
  target = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end('# HELP probe_hits_total Hits.\n# TYPE probe_hits_total counter\nprobe_hits_total{who="test"} 7\n');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetPort = (target.address() as { port: number }).port;
  prom = await startPrometheus(`  - job_name: probe\n    static_configs:\n      - targets: ['127.0.0.1:${targetPort}']\n`);
});

afterAll(async () => {
  await prom?.close();
  await new Promise((r) => target?.close(r));
});

describe('test Prometheus', () => {
  it('scrapes a loopback target every second and answers instant queries', async () => {
    expect(prom.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await eventually(async () => (await instantQuery(prom.url, 'probe_hits_total')).length === 1, 'the first scrape');
    const [s] = await instantQuery(prom.url, 'probe_hits_total');
    expect(s?.metric).toMatchObject({ __name__: 'probe_hits_total', who: 'test', job: 'probe', instance: `127.0.0.1:${targetPort}` });
    expect(s?.value[1]).toBe('7');
  });

  it('is gone after stop() and back after restart() on the same port', async () => {
    const pid = prom.pid;
    await prom.stop();
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(fetch(`${prom.url}/-/ready`)).rejects.toThrow();
    await prom.restart();
    expect((await fetch(`${prom.url}/-/ready`)).ok).toBe(true);
  });

  it('promtool check metrics passes a clean exposition and fails a malformed one', () => {
    expect(promtoolCheckMetrics('# HELP a_total A.\n# TYPE a_total counter\na_total 1\n').status).toBe(0);
    const bad = promtoolCheckMetrics('# TYPE a_total counter\na_total{x="1" 1\n');
    expect(bad.status).not.toBe(0);
  });
});
