// The compiled CLI: server/cli/main.ts bundled by esbuild into dist/cli/main.mjs (npm packages stay
// external), so `meshscope` starts without compiling TypeScript. Built on `npm install` (postinstall)
// and again, on the fly, whenever a source under server/ is newer than the bundle: the bundle can never
// run stale code. MESHSCOPE_CLI_TSX=1 runs the TypeScript sources through tsx instead (development).
//
//   node scripts/build-cli.mjs      build now
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(root, 'server', 'cli', 'main.ts');
// Two levels below the root, like server/cli/main.ts, so its REPO_ROOT (../..) stays right.
export const CLI_BUNDLE = join(root, 'dist', 'cli', 'main.mjs');
const INPUTS = [join(root, 'server'), join(root, 'package.json'), join(root, 'tsconfig.json'), fileURLToPath(import.meta.url)];

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

/** Whether the bundle is missing or older than any input. */
export function cliBundleStale(bundle = CLI_BUNDLE, inputs = INPUTS) {
  if (!existsSync(bundle)) return true;
  const built = statSync(bundle).mtimeMs;
  return inputs.some((p) => newestMtime(p) > built);
}

/** Builds the bundle (written beside, then renamed: concurrent builders never see half a file). */
export async function buildCli() {
  const { build } = await import('esbuild');
  const tmpDir = join(dirname(CLI_BUNDLE), `.build-${process.pid}`);
  mkdirSync(tmpDir, { recursive: true });
  const tmp = join(tmpDir, 'main.mjs');
  await build({
    entryPoints: [ENTRY],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'error',
    tsconfig: join(root, 'tsconfig.json'),
  });
  // The map first: a reader that sees the new bundle finds its map (sourceMappingURL=main.mjs.map).
  renameSync(`${tmp}.map`, `${CLI_BUNDLE}.map`);
  renameSync(tmp, CLI_BUNDLE);
  rmSync(tmpDir, { recursive: true, force: true });
  return CLI_BUNDLE;
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
  const t0 = performance.now();
  await buildCli();
  console.log(`build-cli: ${CLI_BUNDLE.slice(root.length + 1)} in ${Math.round(performance.now() - t0)} ms`);
}
