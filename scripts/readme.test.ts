// The docs cannot drift from the tree: every top-level folder, every server/ and components/ folder is in
// docs/architecture.md's Layout, and every app page and route handler is in docs/http-api.md's table.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './fixtures.mjs';

const ARCHITECTURE = readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');
const HTTP_API = readFileSync(join(REPO_ROOT, 'docs', 'http-api.md'), 'utf8');
const tracked = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);

/** The fenced block right after a `# Heading` (any level). */
export function sectionBlock(text: string, heading: string): string {
  const at = text.indexOf(`# ${heading}\n`);
  if (at < 0) return '';
  const m = /```\n([\s\S]*?)```/.exec(text.slice(at));
  return m?.[1] ?? '';
}

/** The first cells of the table right after a `# Heading` (any level). */
export function tableCells(text: string, heading: string): string[] {
  const at = text.indexOf(`# ${heading}\n`);
  if (at < 0) return [];
  const rest = text.slice(at).split('\n').slice(1);
  const rows = rest.slice(rest.findIndex((l) => l.startsWith('|'))).filter((_l, i, a) => a.slice(0, i + 1).every((x) => x.startsWith('|')));
  return rows.map((r) => r.split('|')[1]?.trim() ?? '');
}

/** `app/api/proxies/[id]/sync/route.ts` → a pattern for `/api/proxies/POD.NS/sync` written in any cell. */
export function routePattern(file: string): RegExp {
  const path = `/${file.replace(/^app\/?/, '').replace(/\/?(page\.tsx|route\.ts)$/, '')}`;
  const src = path
    .split('/')
    .map((seg) => (/^\[.+\]$/.test(seg) ? '[^/\\s`]+' : seg.replace(/[.*+?^${}()|\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`(^|[\\s\`])${src === '/' ? '/' : src}(?=[\\s\`?\\[,]|$)`);
}

const dirsUnder = (prefix: string): string[] =>
  [
    ...new Set(
      tracked
        .filter((f) => f.startsWith(prefix) && f.slice(prefix.length).includes('/'))
        .map((f) => f.slice(prefix.length).split('/')[0] ?? ''),
    ),
  ]
    .filter((d) => d && !d.startsWith('.') && d !== 'testdata' && d !== 'gen')
    .sort();

describe('docs: layout and HTTP table', () => {
  const layout = sectionBlock(ARCHITECTURE, 'Layout');
  const http = tableCells(HTTP_API, 'HTTP endpoints');

  it('has a Layout block and an HTTP table', () => {
    expect(layout.length).toBeGreaterThan(100);
    expect(http.length).toBeGreaterThan(5);
  });

  it('names every top-level folder in its Layout', () => {
    const top = dirsUnder('').concat(tracked.some((f) => f.startsWith('.ci/')) ? ['.ci'] : []);
    const missing = top.filter((d) => !new RegExp(`^${d.replace('.', '\\.')}/`, 'm').test(layout));
    expect(missing).toEqual([]);
  });

  it('names every server/ folder and every components/ folder in its Layout', () => {
    const serverMissing = dirsUnder('server/').filter((d) => !new RegExp(`^  ${d}/`, 'm').test(layout));
    expect(serverMissing).toEqual([]);
    const componentsMissing = dirsUnder('components/').filter((d) => !new RegExp(`[\\s,]${d}/`).test(layout));
    expect(componentsMissing).toEqual([]);
  });

  it('lists every app page and route handler in its HTTP table', () => {
    const routes = tracked.filter((f) => f.startsWith('app/') && /(^|\/)(page\.tsx|route\.ts)$/.test(f));
    expect(routes.length).toBeGreaterThan(5);
    const missing = routes.filter((f) => !http.some((cell) => routePattern(f).test(cell)));
    expect(missing).toEqual([]);
  });

  it('the route pattern matches the README notation and only that route', () => {
    const p = routePattern('app/api/proxies/[id]/sync/route.ts');
    expect(p.test('`GET /api/proxies/POD.NS/sync`')).toBe(true);
    expect(p.test('`GET /api/proxies/POD.NS`')).toBe(false);
    expect(routePattern('app/page.tsx').test('`/`')).toBe(true);
    expect(routePattern('app/proxies/page.tsx').test('`/proxies/POD.NS`')).toBe(false);
  });
});
