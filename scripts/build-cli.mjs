// The compiled CLI: server/cli/main.ts bundled by esbuild into dist/cli/main.mjs, so `meshscope` starts
// without compiling TypeScript. Start-up (issue 12) shapes the build:
// - code splitting: each command is a dynamic import() in main.ts, so a command loads only its own chunk
//   (dist/cli/chunks/*; `proxies` never evaluates the translator or the protobuf descriptors);
// - the pure-JS npm packages the CLI uses (yaml, zod, @bufbuild/protobuf, …) are bundled in: one file per
//   chunk instead of hundreds of module resolutions; only EXTERNAL packages stay in node_modules;
// - dist/cli/main.inputs.json lists the sources the build read, so the bin's staleness check stats those
//   (a few hundred stat calls) instead of walking server/ on every start.
// Built on `npm install` (postinstall) and again, on the fly, whenever an input is newer than the bundle
// (or gone): the bundle can never run stale code. MESHSCOPE_CLI_TSX=1 runs the TypeScript sources through
// tsx instead (development).
//
//   node scripts/build-cli.mjs      build now
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(root, 'server', 'cli', 'main.ts');
// Two levels below the root, like server/cli/main.ts, so its REPO_ROOT (../..) stays right.
const OUT_DIR = join(root, 'dist', 'cli');
export const CLI_BUNDLE = join(OUT_DIR, 'main.mjs');
/** The CPU worker (server/isolate/worker.ts): the same build, sharing its chunks; server/isolate/entry.ts runs it. */
const WORKER_ENTRY = join(root, 'server', 'isolate', 'worker.ts');
export const CPU_WORKER = join(OUT_DIR, 'cpuWorker.mjs');
/** The parse worker (server/sources/file/parseWorker.ts: big files' first loads on the second core), beside it. */
const PARSE_WORKER_ENTRY = join(root, 'server', 'sources', 'file', 'parseWorker.ts');
export const PARSE_WORKER = join(OUT_DIR, 'parseWorker.mjs');
/** The build's inputs (paths relative to the repo root), written beside the bundle. */
export const CLI_MANIFEST = join(OUT_DIR, 'main.inputs.json');
const CHUNKS = 'chunks';
/** Inputs every build depends on besides the sources esbuild read. */
const BUILD_INPUTS = [
  join(root, 'package.json'),
  join(root, 'tsconfig.json'),
  fileURLToPath(import.meta.url),
  join(root, 'scripts', 'fileDescJson.mjs'),
];
/** Packages left to node_modules: native/dynamic loaders and anything the CLI only spawns. */
const EXTERNAL = ['esbuild', 'tsx', 'next', '@grpc/*', '@kubernetes/*', 'react', 'react-dom'];
/** A chunk no longer referenced is deleted once this old (a CLI started before a rebuild may still import it). */
const OLD_CHUNK_MS = 10 * 60_000;

function newestMtime(p) {
  let st;
  try {
    st = statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return /\.test\.tsx?$/.test(p) ? 0 : st.mtimeMs;
  let newest = 0;
  for (const e of readdirSync(p, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'testdata' || e.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(p, e.name)));
  }
  return newest;
}

/**
 * Whether the bundle is missing or older than an input. With `inputs` (files or directories, walked), those;
 * else the files of the bundle's manifest (a missing manifest or a missing input is stale too).
 */
export function cliBundleStale(bundle = CLI_BUNDLE, inputs = undefined, manifest = CLI_MANIFEST, base = root) {
  let built;
  try {
    built = statSync(bundle).mtimeMs;
  } catch {
    return true;
  }
  // A build from before the CPU worker (or the parse worker) existed is stale too.
  if (bundle === CLI_BUNDLE && (!existsSync(CPU_WORKER) || !existsSync(PARSE_WORKER))) return true;
  if (inputs) return inputs.some((p) => newestMtime(p) > built);
  let files;
  try {
    files = JSON.parse(readFileSync(manifest, 'utf8')).inputs;
  } catch {
    return true;
  }
  if (!Array.isArray(files) || files.length === 0) return true;
  // `base + sep + f`, not join(): the manifest's paths are already normal, and path.join's normalization was half
  // of this check on every CLI start (~30 ms for ~450 inputs, before anything is compiled).
  const prefix = base.endsWith(sep) ? base : base + sep;
  for (const f of files) {
    const st = statSync(prefix + f, { throwIfNoEntry: false });
    if (!st || st.mtimeMs > built) return true;
  }
  return false;
}

/** Source files (not node_modules) among esbuild's metafile inputs, plus the build's own inputs; repo-relative. */
export function manifestInputs(metafile, base = root) {
  const files = new Set(BUILD_INPUTS.map((f) => relative(base, f).split(sep).join('/')));
  for (const input of Object.keys(metafile.inputs)) {
    if (input.includes('node_modules/') || input.includes(':')) continue; // packages, `node:` / virtual modules
    files.add(relative(base, join(base, input)).split(sep).join('/'));
  }
  return [...files].sort();
}

/**
 * The generated descriptors (server/gen) get server/cli/fileDesc.ts's fileDesc: same descriptors, built faster,
 * each file's FileDescriptorProto decoded here at build time (scripts/fileDescJson.mjs) instead of on every start.
 */
const FILE_DESC = join(root, 'server', 'cli', 'fileDesc.ts');
const fastFileDesc = {
  name: 'meshscope-file-desc',
  setup(b) {
    const gen = `${join(root, 'server', 'gen')}${sep}`;
    b.onResolve({ filter: /^@bufbuild\/protobuf\/codegenv2$/ }, (args) =>
      args.importer.startsWith(gen) ? { path: FILE_DESC } : undefined,
    );
    b.onLoad({ filter: /_pb\.ts$/ }, async (args) => {
      if (!args.path.startsWith(gen)) return undefined;
      const { withDecodedFileDescs } = await import('./fileDescJson.mjs');
      return { contents: withDecodedFileDescs(readFileSync(args.path, 'utf8')), loader: 'ts' };
    });
  },
};

/**
 * The build id (server/sources/file/parseCache.ts cliBuildId: what the CLI's caches of derived results are
 * keyed by) is the SHA-256 of everything the build wrote, so any change to a source or a bundled package is a
 * new id. esbuild defines MESHSCOPE_BUILD_ID as a placeholder, replaced here once the outputs are known.
 */
export const BUILD_ID_PLACEHOLDER = '@@MESHSCOPE_BUILD_ID_0123456789abcdef@@';
export function withBuildId(outputFiles) {
  const hash = createHash('sha256');
  for (const f of [...outputFiles].sort((a, b) => (a.path < b.path ? -1 : 1))) hash.update(f.path).update('\0').update(f.contents);
  const id = hash.digest('hex').slice(0, BUILD_ID_PLACEHOLDER.length);
  const placeholder = Buffer.from(BUILD_ID_PLACEHOLDER);
  let replaced = 0;
  for (const f of outputFiles) {
    if (!f.path.endsWith('.mjs')) continue;
    const contents = Buffer.from(f.contents);
    let at = contents.indexOf(placeholder);
    if (at < 0) continue;
    for (; at >= 0; at = contents.indexOf(placeholder, at + 1)) {
      contents.write(id, at);
      replaced++;
    }
    f.contents = contents;
  }
  if (replaced === 0) throw new Error('build-cli: no MESHSCOPE_BUILD_ID in the bundle');
}

/**
 * esbuild's options for the bundle. Paths in its metafile are relative to absWorkingDir (default: the process's
 * cwd), so it is the repo root: a rebuild by a `meshscope` started in another directory must still write a
 * manifest of repo-relative paths, or every later start finds the listed inputs missing and rebuilds again.
 */
export function cliBuildOptions() {
  return {
    absWorkingDir: root,
    entryPoints: { main: ENTRY, cpuWorker: WORKER_ENTRY, parseWorker: PARSE_WORKER_ENTRY },
    outdir: OUT_DIR,
    write: false,
    bundle: true,
    splitting: true,
    chunkNames: `${CHUNKS}/[name]-[hash]`,
    entryNames: '[name]',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // Bundled CommonJS packages call require(); give the ESM output one.
    banner: {
      js: "import { createRequire as __meshscopeRequire } from 'node:module'; const require = __meshscopeRequire(import.meta.url);",
    },
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    metafile: true,
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'error',
    tsconfig: join(root, 'tsconfig.json'),
    plugins: [fastFileDesc],
    define: { MESHSCOPE_BUILD_ID: JSON.stringify(BUILD_ID_PLACEHOLDER) },
  };
}

/**
 * Builds the bundle. Every file is written beside its target, then renamed; chunks (content-hashed names)
 * and the manifest before main.mjs, so a concurrent reader sees either the old entry or the new one with
 * all it imports. The entry's mtime is set to the build's start: a source saved during the build is newer.
 */
export async function buildCli() {
  const started = Date.now();
  const { build } = await import('esbuild');
  const res = await build(cliBuildOptions());
  withBuildId(res.outputFiles);
  const tmpSuffix = `.tmp-${process.pid}`;
  const put = (path, contents) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path + tmpSuffix, contents);
    return path + tmpSuffix;
  };
  const entry = res.outputFiles.find((f) => f.path === CLI_BUNDLE);
  if (!entry) throw new Error(`build-cli: esbuild wrote no ${CLI_BUNDLE}`);
  const written = new Set();
  for (const f of res.outputFiles) {
    written.add(f.path);
    if (f === entry) continue;
    renameSync(put(f.path, f.contents), f.path);
  }
  renameSync(put(CLI_MANIFEST, `${JSON.stringify({ inputs: manifestInputs(res.metafile) }, null, 1)}\n`), CLI_MANIFEST);
  const tmpEntry = put(CLI_BUNDLE, entry.contents);
  utimesSync(tmpEntry, started / 1000, started / 1000);
  renameSync(tmpEntry, CLI_BUNDLE);
  removeOldChunks(written);
  return CLI_BUNDLE;
}

/** Chunks of earlier builds (not `keep`) older than OLD_CHUNK_MS, and leftovers of interrupted builds. */
function removeOldChunks(keep) {
  const dir = join(OUT_DIR, CHUNKS);
  const now = Date.now();
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const p = join(dir, name);
    if (keep.has(p)) continue;
    const st = statSync(p, { throwIfNoEntry: false });
    if (st && now - st.mtimeMs > OLD_CHUNK_MS) rmSync(p, { force: true });
  }
  // The single-file bundle of earlier versions left a directory per build here on a crash.
  for (const name of readdirSync(OUT_DIR)) if (name.startsWith('.build-')) rmSync(join(OUT_DIR, name), { recursive: true, force: true });
}

/** The module URL the bin imports: the fresh bundle, or the TypeScript entry through tsx. */
export async function cliModule() {
  if (process.env.MESHSCOPE_CLI_TSX === '1') {
    const { register } = await import('tsx/esm/api');
    register();
    return pathToFileURL(ENTRY).href;
  }
  if (cliBundleStale()) await buildCli();
  return pathToFileURL(CLI_BUNDLE).href;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(ENTRY)) {
    // `npm install` before the sources are there (the Docker deps stage): the bin builds on first run.
    console.log('build-cli: server/cli/main.ts not present yet; skipped');
    process.exit(0);
  }
  // --if-stale (server/isolate/entry.ts, before starting CPU workers): build only when an input is newer.
  if (process.argv.includes('--if-stale') && !cliBundleStale()) process.exit(0);
  const t0 = performance.now();
  await buildCli();
  console.log(`build-cli: ${relative(root, CLI_BUNDLE)} in ${Math.round(performance.now() - t0)} ms`);
}
