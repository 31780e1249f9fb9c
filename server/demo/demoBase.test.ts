// `serve --demo-base 127.A.B`: the embedded demo mesh with its pods moved to 127.A.B.x (a temp copy of its
// files, removed on stop); nothing else of the mesh changes.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRuntimeForTest } from '../runtime';
import { isDemoBase } from './demoBase';

describe('demo base', () => {
  it('accepts 127.A.B only', () => {
    expect(['127.0.1', '127.255.0'].map(isDemoBase)).toEqual([true, true]);
    expect(['127.0.256', '10.0.1', '127.0', '127.0.1.2'].map(isDemoBase)).toEqual([false, false, false, false]);
  });

  it('loads the demo with its loopback pods on the base, and removes the copy on stop', async () => {
    const plain = createRuntimeForTest({});
    const moved = createRuntimeForTest({ demoBase: '127.0.218' });
    await Promise.all([plain.ready, moved.ready]);
    const ips = (rt: typeof plain) =>
      rt
        .snapshot()
        .pods.map((p) => `${p.namespace}/${p.labels.app}/${p.ip}`)
        .sort();
    expect(ips(plain).filter((x) => x.includes('127.0.1.'))).toHaveLength(8);
    expect(ips(moved)).toEqual(ips(plain).map((x) => x.replace('127.0.1.', '127.0.218.')));
    expect(moved.snapshot().virtualServices.length).toBe(plain.snapshot().virtualServices.length);
    const source = moved.statuses().find((s) => s.id === 'demo')!;
    const dir = /\/\S*meshscope-demo-\w+/.exec(source.detail ?? '')?.[0];
    expect(dir && existsSync(dir)).toBe(true);
    await Promise.all([plain.stop(), moved.stop()]);
    expect(existsSync(dir!)).toBe(false);
  });
});
