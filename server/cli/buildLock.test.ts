import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLock } from './buildLock';

describe('withLock', () => {
  it('runs critical sections one at a time and releases the lock', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lock-')), 'build.lock');
    const order: string[] = [];
    const section = (name: string) => async () => {
      order.push(`${name}:in`);
      await new Promise((r) => setTimeout(r, 60));
      order.push(`${name}:out`);
    };
    await Promise.all([withLock(dir, section('a'), { pollMs: 10 }), withLock(dir, section('b'), { pollMs: 10 })]);
    expect(order).toEqual(['a:in', 'a:out', 'b:in', 'b:out']);
    expect(existsSync(dir)).toBe(false);
  });

  it('takes over a lock whose owner process is gone', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lock-')), 'build.lock');
    mkdirSync(dir);
    writeFileSync(join(dir, 'pid'), '999999999');
    expect(await withLock(dir, async () => 'ran', { pollMs: 10, timeoutMs: 2000 })).toBe('ran');
  });

  it('releases the lock when the section throws', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lock-')), 'build.lock');
    await expect(withLock(dir, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(existsSync(dir)).toBe(false);
  });
});
