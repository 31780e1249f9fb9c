// `meshscope analyze` through the real CLI (bin/meshscope.mjs), as a user runs it (DESIGN.md §3:
// findings, -o json|table, exit 1 when an error-level finding exists).
// Expectations come from Istio's analyzers: virtualservice/destinationrules.go (a subset must be defined by a
// DestinationRule for the host → IST0101 "host+subset in destinationrule"), schema/validation.go (an invalid
// object → IST0106), validation.go analyzeUnreachableHTTPRules (IST0130 Warning / IST0131 Info), and the levels
// of msg/messages.yaml (only Error-level findings fail the command).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../analyze/index';
import { bookinfo, REPO_ROOT } from '../testing/paths';
import { runCli } from './cliRun';

const platform = bookinfo('platform', 'bookinfo.yaml');
const vsV3 = bookinfo('networking', 'virtual-service-reviews-v3.yaml');
const drReviews = bookinfo('networking', 'destination-rule-reviews.yaml');
const td = (f: string) => join(REPO_ROOT, 'server', 'analyze', 'testdata', f);
const bad = (f: string) => join(REPO_ROOT, 'server', 'acceptance', 'testdata', 'bad', f);

describe('meshscope analyze', () => {
  it('Bookinfo reviews → v3 without its DestinationRule: IST0101 at the subset, origin file:doc, exit 1 (json)', () => {
    const r = runCli(['analyze', '--config', platform, '--config', vsV3, '-o', 'json']);
    expect(r.status).toBe(1);
    const findings = JSON.parse(r.stdout) as Finding[];
    expect(findings).toEqual([
      {
        code: 'IST0101',
        level: 'Error',
        message: 'Referenced host+subset in destinationrule not found: "reviews+v3"',
        object: 'VirtualService default/reviews',
        path: 'spec.http[0].route[0].destination.subset',
        origin: { source: 'file', file: vsV3, doc: 0, line: 12 }, // line 12: `subset: v3` in Istio's file
      },
    ]);
  });

  it('the same in a table: one header and one row naming code, object, path and origin', () => {
    const r = runCli(['analyze', '--config', platform, '--config', vsV3]);
    expect(r.status).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^LEVEL\s+CODE\s+OBJECT\s+PATH\s+ORIGIN\s+MESSAGE$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^Error\s+IST0101\s+VirtualService default\/reviews\s+spec\.http\[0\]\.route\[0\]\.destination\.subset\s+\S+virtual-service-reviews-v3\.yaml:0 \(line 12\)\s+Referenced host\+subset/,
    );
  });

  it('with destination-rule-reviews.yaml the subset exists: no findings, exit 0 (table and json)', () => {
    const t = runCli(['analyze', '--config', platform, '--config', drReviews, '--config', vsV3]);
    expect(t.status).toBe(0);
    expect(t.stdout).toBe('No validation issues found.\n');
    const j = runCli(['analyze', '--config', platform, '--config', drReviews, '--config', vsV3, '-o', 'json']);
    expect(j.status).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual([]);
  });

  it('reads --config - from stdin', () => {
    const yaml = readFileSync(platform, 'utf8') + '\n---\n' + readFileSync(vsV3, 'utf8');
    const r = runCli(['analyze', '--config', '-', '-o', 'json'], yaml);
    expect(r.status).toBe(1);
    expect((JSON.parse(r.stdout) as Finding[]).map((f) => f.code)).toEqual(['IST0101']);
  });

  it('located load errors are findings: a wrong-typed weight → IST0106 with its path; nothing on stderr', () => {
    const r = runCli(['analyze', '--config', bad('good.yaml'), '--config', bad('wrong-type.yaml'), '-o', 'json']);
    expect(r.status).toBe(1);
    const f = (JSON.parse(r.stdout) as Finding[]).find((x) => x.code === 'IST0106');
    expect(f).toMatchObject({ level: 'Error', object: 'VirtualService default/web-split', path: 'spec.http[0].route[0].weight' });
    expect(f?.message.startsWith('Schema validation error: ')).toBe(true);
    expect(f?.origin?.file).toBe(bad('wrong-type.yaml'));
    expect(r.stderr).toBe('');
  });

  it('only Warning/Info findings (IST0130, IST0131) exit 0', () => {
    const r = runCli(['analyze', '--config', td('unreachable-rules.yaml'), '-o', 'json']);
    expect(r.status).toBe(0);
    const levels = new Set((JSON.parse(r.stdout) as Finding[]).map((f) => `${f.code} ${f.level}`));
    expect([...levels].sort()).toEqual(['IST0130 Warning', 'IST0131 Info']);
  });

  it('usage errors exit 2: no --config, an unknown -o', () => {
    expect(runCli(['analyze']).status).toBe(2);
    const r = runCli(['analyze', '--config', platform, '-o', 'yaml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/json\|table/);
  });
});
