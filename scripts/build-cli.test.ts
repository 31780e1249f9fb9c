// The compiled CLI never runs stale code: any source newer than the bundle makes it stale (and the bin
// then rebuilds it); test files and testdata do not count. The bin checks the files the build read
// (dist/cli/main.inputs.json), and each command is a chunk of its own.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILD_ID_PLACEHOLDER, cliBundleStale, manifestInputs, withBuildId } from './build-cli.mjs';
import { REPO_ROOT } from './fixtures.mjs';

describe('cliBundleStale', () => {
  const dir = mkdtempSync(join(tmpdir(), 'meshscope-cli-stale-'));
  const src = join(dir, 'server');
  mkdirSync(join(src, 'cli'), { recursive: true });
  const bundle = join(dir, 'main.mjs');
  const at = (file: string, seconds: number) => {
    writeFileSync(file, '');
    utimesSync(file, seconds, seconds);
  };

  it('is stale without a bundle, fresh after one newer than every source, stale again after an edit', () => {
    at(join(src, 'cli', 'main.ts'), 1000);
    expect(cliBundleStale(bundle, [src])).toBe(true);
    at(bundle, 2000);
    expect(cliBundleStale(bundle, [src])).toBe(false);
    at(join(src, 'cli', 'main.ts'), 3000);
    expect(cliBundleStale(bundle, [src])).toBe(true);
  });

  it('ignores tests and testdata', () => {
    at(bundle, 5000);
    at(join(src, 'cli', 'main.test.ts'), 6000);
    mkdirSync(join(src, 'testdata'), { recursive: true });
    at(join(src, 'testdata', 'x.yaml'), 6000);
    expect(cliBundleStale(bundle, [src])).toBe(false);
  });
});

describe('cliBundleStale with the build manifest (the bin’s check: only the files the build read)', () => {
  const base = mkdtempSync(join(tmpdir(), 'meshscope-cli-manifest-'));
  mkdirSync(join(base, 'server', 'cli'), { recursive: true });
  mkdirSync(join(base, 'dist'), { recursive: true });
  const bundle = join(base, 'dist', 'main.mjs');
  const manifest = join(base, 'dist', 'main.inputs.json');
  const at = (file: string, seconds: number) => {
    writeFileSync(file, '');
    utimesSync(file, seconds, seconds);
  };
  const stale = () => cliBundleStale(bundle, undefined, manifest, base);

  it('is stale without a manifest, fresh when every listed input is older, stale after an edit or a deletion', () => {
    at(join(base, 'server', 'cli', 'main.ts'), 1000);
    at(join(base, 'server', 'cli', 'args.ts'), 1000);
    at(bundle, 2000);
    expect(stale()).toBe(true);
    writeFileSync(manifest, JSON.stringify({ inputs: ['server/cli/main.ts', 'server/cli/args.ts'] }));
    expect(stale()).toBe(false);
    at(join(base, 'server', 'cli', 'args.ts'), 3000);
    expect(stale()).toBe(true);
    at(bundle, 4000);
    expect(stale()).toBe(false);
    rmSync(join(base, 'server', 'cli', 'args.ts'));
    expect(stale()).toBe(true);
  });

  it('ignores files the build did not read; an empty or broken manifest is stale', () => {
    at(join(base, 'server', 'cli', 'args.ts'), 1000);
    at(join(base, 'server', 'cli', 'other.ts'), 9000);
    expect(stale()).toBe(false);
    writeFileSync(manifest, '{"inputs": []}');
    expect(stale()).toBe(true);
    writeFileSync(manifest, '{"inp');
    expect(stale()).toBe(true);
  });
});

describe('manifestInputs', () => {
  it('lists the sources esbuild read (repo-relative) and the build’s own inputs, never packages', () => {
    const files = manifestInputs(
      { inputs: { 'server/cli/main.ts': {}, 'node_modules/yaml/dist/index.js': {}, 'server/model/mesh.ts': {} } },
      REPO_ROOT,
    );
    // The build's own inputs include the descriptor decoder it runs on the generated files (scripts/fileDescJson.mjs).
    expect(files).toEqual([
      'package.json',
      'scripts/build-cli.mjs',
      'scripts/fileDescJson.mjs',
      'server/cli/main.ts',
      'server/model/mesh.ts',
      'tsconfig.json',
    ]);
  });
});

describe('a build started in another directory', () => {
  it('still writes repo-relative inputs (else every later start finds them missing and rebuilds)', () => {
    // A process of its own: esbuild takes its default working directory from the cwd when it is first loaded.
    const elsewhere = mkdtempSync(join(tmpdir(), 'meshscope-cli-cwd-'));
    const url = (p: string) => JSON.stringify(pathToFileURL(p).href);
    const script = [
      `const { cliBuildOptions, manifestInputs } = await import(${url(join(REPO_ROOT, 'scripts', 'build-cli.mjs'))});`,
      `const { build } = await import(${url(createRequire(join(REPO_ROOT, 'package.json')).resolve('esbuild'))});`,
      `const res = await build({ ...cliBuildOptions(), entryPoints: { main: ${JSON.stringify(join(REPO_ROOT, 'server', 'cli', 'args.ts'))} } });`,
      'console.log(JSON.stringify(manifestInputs(res.metafile)));',
    ].join('\n');
    try {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: elsewhere, encoding: 'utf8' });
      const inputs = JSON.parse(out) as string[];
      expect(inputs).toContain('server/cli/args.ts');
      expect(inputs.filter((f) => f.startsWith('..') || f.startsWith('/'))).toEqual([]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('the CLI build splits per command', () => {
  it('`proxies` reaches neither the translator nor the protobuf descriptors (start-up, issue 12)', async () => {
    const { build } = await import('esbuild');
    const res = await build({
      entryPoints: [join(REPO_ROOT, 'server', 'cli', 'commands', 'proxies.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'error',
      outdir: join(tmpdir(), 'meshscope-cli-split'),
    });
    const inputs = Object.keys(res.metafile.inputs);
    expect(inputs.some((i) => i.endsWith('server/model/snapshot.ts'))).toBe(true);
    expect(inputs.filter((i) => i.includes('server/gen/') || i.includes('server/translate/'))).toEqual([]);
    const packages = new Set(Object.values(res.metafile.inputs).flatMap((v) => v.imports.filter((i) => i.external).map((i) => i.path)));
    expect([...packages].filter((p) => p.startsWith('@bufbuild/'))).toEqual([]);
  });
});

describe('the build id (what the CLI caches derived results under: server/cli/parsedCache.ts)', () => {
  const outputs = (chunk: string) => [
    { path: '/d/main.mjs', contents: new TextEncoder().encode('import "./chunks/a.mjs";') },
    { path: '/d/chunks/a.mjs', contents: new TextEncoder().encode(`${chunk};function id(){return"${BUILD_ID_PLACEHOLDER}"}`) },
    { path: '/d/chunks/a.mjs.map', contents: new TextEncoder().encode('{}') },
  ];
  const idOf = (files: { contents: Uint8Array }[]) => /return"([^"]*)"/.exec(new TextDecoder().decode(files[1]!.contents))?.[1];

  it('replaces the placeholder with a hash of every output: the same outputs the same id, any change another', () => {
    const a = outputs('let x=1');
    const b = outputs('let x=1');
    const c = outputs('let x=2');
    for (const f of [a, b, c]) withBuildId(f);
    expect(idOf(a)).toMatch(/^[0-9a-f]+$/);
    expect(idOf(a)).toHaveLength(BUILD_ID_PLACEHOLDER.length);
    expect(idOf(b)).toBe(idOf(a));
    expect(idOf(c)).not.toBe(idOf(a));
  });

  it('a bundle without the placeholder is a build error (the caches would never see a new build)', () => {
    expect(() => withBuildId([{ path: '/d/main.mjs', contents: new TextEncoder().encode('x') }])).toThrow(/MESHSCOPE_BUILD_ID/);
  });
});
