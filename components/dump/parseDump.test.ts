// Every real Envoy dump in ../shared/fixtures opens; non-dumps get a message saying what to do.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDumpFixture } from '@/server/testing/paths';
import { parseDumpText } from './parseDump';

const dir = dirname(configDumpFixture('x'));

describe('parseDumpText', () => {
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    it(`opens ${f}`, () => {
      const p = parseDumpText(readFileSync(`${dir}/${f}`, 'utf8'));
      expect(p.ok).toBe(true);
      if (p.ok) expect(p.counts.listeners + p.counts.routes + p.counts.clusters + p.counts.endpoints).toBeGreaterThan(0);
    });
  }

  it('a bare configs array is accepted', () => {
    const d = JSON.parse(readFileSync(configDumpFixture('gateway-routes-config_dump.json'), 'utf8')) as { configs: unknown[] };
    const p = parseDumpText(JSON.stringify(d.configs));
    expect(p.ok && p.counts.routes).toBe(3); // two static (bootstrap) route configs + http.8080
  });

  it('empty, non-JSON and non-dump inputs say what is wrong', () => {
    expect(parseDumpText('  ')).toMatchObject({ ok: false, error: expect.stringContaining('paste the JSON') });
    expect(parseDumpText('{nope')).toMatchObject({ ok: false, error: expect.stringContaining('not JSON') });
    expect(parseDumpText('{"kind":"Pod"}')).toMatchObject({ ok: false, error: expect.stringContaining('no "configs" array') });
  });
});
