// Every relative link in the repo's Markdown (README.md, docs/**, the other tracked *.md) names a file or folder
// that exists, and a `#fragment` into a Markdown file names one of its headings as GitHub renders it: the
// anchor is the heading's text lower-cased, with everything but letters, marks, digits, `_`, `-` and spaces
// dropped and spaces turned into `-`; a repeated anchor gets `-1`, `-2`, … (github-slugger, which GitHub's
// Markdown renderer uses for heading ids). Source comments that name a docs/….md file name one that exists.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './fixtures.mjs';

/** GitHub's anchor for a heading's text (github-slugger's `slug`, without its state). */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Markdown without fenced code blocks and inline code spans (links inside them are not links). */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors of a Markdown file's headings, in GitHub's numbering of repeats. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    // A heading's text is its rendered text: inline code keeps its content, link syntax keeps its label.
    const base = slug(m[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The link targets of a Markdown text: inline `[x](target)`, `![x](target)` and reference definitions. */
export function linkTargets(text: string): string[] {
  const body = withoutCode(text);
  const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const defs = [...body.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...defs];
}

/** What is wrong with one link of `file` (a repo-relative path), or undefined when it resolves. */
export function deadLink(file: string, target: string, read: (path: string) => string | undefined): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return undefined; // http:, mailto:, …
  const hash = target.indexOf('#');
  const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const fragment = hash < 0 ? '' : decodeURIComponent(target.slice(hash + 1));
  const resolved = path === '' ? file : normalize(join(dirname(file), path));
  const text = read(resolved);
  if (text === undefined) return `${file}: ${target}: no such file`;
  if (fragment === '' || !resolved.endsWith('.md')) return undefined;
  return anchorsOf(text).has(fragment) ? undefined : `${file}: ${target}: no heading with anchor #${fragment} in ${resolved}`;
}

const readRepo = (path: string): string | undefined => {
  const abs = join(REPO_ROOT, path);
  if (!existsSync(abs)) return undefined;
  return statSync(abs).isDirectory() ? '' : readFileSync(abs, 'utf8');
};

describe('Markdown links', () => {
  it('every relative link of every tracked Markdown file resolves to a file and heading', () => {
    const files = execFileSync('git', ['ls-files', '*.md'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files).toContain('README.md');
    const links = files.flatMap((f) => linkTargets(readFileSync(join(REPO_ROOT, f), 'utf8')).map((t) => [f, t] as const));
    expect(links.length).toBeGreaterThan(30);
    expect(links.flatMap(([f, t]) => deadLink(f, t, readRepo) ?? [])).toEqual([]);
  });

  it('every docs/….md a source file, Dockerfile or workflow names exists', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(
        (f) =>
          /\.(ts|tsx|mts|mjs|js|cjs|ya?ml)$|(^|\/)Dockerfile$/.test(f) && !f.startsWith('server/gen/') && f !== 'scripts/docLinks.test.ts',
      );
    const named = files.flatMap((f) =>
      [...readFileSync(join(REPO_ROOT, f), 'utf8').matchAll(/\bdocs\/[\w./-]+?\.md\b/g)].map((m) => [f, m[0]] as const),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter(([, doc]) => !existsSync(join(REPO_ROOT, doc))).map(([f, doc]) => `${f}: ${doc}`)).toEqual([]);
  });

  it('anchors follow GitHub: punctuation and symbols dropped, spaces to hyphens, repeats numbered', () => {
    // Heading ids as github.com renders them (github-slugger's fixtures: `5×` and `—` are dropped, `_` kept).
    expect(slug("The allocator (session 7, goal 2's memory rows)")).toBe('the-allocator-session-7-goal-2s-memory-rows');
    expect(slug('The 5× rows and the second core (session 8, 2026-11-28, goals 3 and 6)')).toBe(
      'the-5-rows-and-the-second-core-session-8-2026-11-28-goals-3-and-6',
    );
    expect(slug('Goal 2: first configs — sharing')).toBe('goal-2-first-configs--sharing');
    expect(slug('snake_case and Ünïcode')).toBe('snake_case-and-ünïcode');
    expect([...anchorsOf('# A\n## A\n```\n# A\n```\n### `code` A\n')]).toEqual(['a', 'a-1', 'code-a']);
  });

  it('reports a missing file, a missing heading and a link into a code span not at all', () => {
    const files: Record<string, string> = { 'docs/a.md': '# Title\n\n## Part one\n', 'docs/b.md': '' };
    const read = (p: string) => files[p];
    expect(deadLink('docs/b.md', 'a.md#part-one', read)).toBeUndefined();
    expect(deadLink('docs/b.md', 'a.md#part-two', read)).toMatch(/no heading with anchor #part-two/);
    expect(deadLink('docs/b.md', 'c.md', read)).toMatch(/no such file/);
    expect(deadLink('docs/b.md', '#title', (p) => (p === 'docs/b.md' ? '# Title\n' : undefined))).toBeUndefined();
    expect(deadLink('docs/b.md', 'https://example.com/x.md#nothing', read)).toBeUndefined();
    expect(linkTargets('see `[x](nowhere.md)` and [y](a.md)\n\n```\n[z](gone.md)\n```\n[r]: b.md\n')).toEqual(['a.md', 'b.md']);
  });
});
