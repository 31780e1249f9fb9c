// `meshscope serve [--config PATH…] [--kubeconfig FILE [--context C] | --context C | --in-cluster]
//                  [--namespace NS]… [--port 3000] [--xds-port 15010] [--allow-apply] [--auth-token-file F]
//                  [--contracts FILE]`
// (`--namespace`: with files, the namespace of objects that name none; with a cluster, repeatable,
// the namespaces to watch instead of the whole cluster.)
// Builds the Next app when needed, then runs `next start` as a child with MESHSCOPE_CONFIG set.
// Forwards SIGINT/SIGTERM to that child only, and exits with its status.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomToken } from '../../api/bearer';
import { ENV_VAR, sourceMode, type RuntimeConfig } from '../../api/runtimeConfig';
import { list, parseArgs, portFlag, str, UsageError } from '../args';
import { buildStatus, distDir, preservingFile } from '../build';
import { withLock } from '../buildLock';
import { readStdin } from '../load';
import type { Io } from './common';

export interface ServePlan {
  port: number;
  runtime: RuntimeConfig;
}

export async function planServe(
  argv: readonly string[],
  cwd: string,
  stdin: () => Promise<string> = () => readStdin(),
): Promise<ServePlan> {
  const args = parseArgs(argv, [
    { name: 'config', short: 'c', kind: 'string', repeat: true },
    { name: 'namespace', short: 'n', kind: 'string', repeat: true },
    { name: 'kubeconfig', kind: 'string' },
    { name: 'context', kind: 'string' },
    { name: 'in-cluster', kind: 'boolean' },
    { name: 'port', kind: 'string' },
    { name: 'xds-port', kind: 'string' },
    { name: 'allow-apply', kind: 'boolean' },
    { name: 'auth-token-file', kind: 'string' },
    { name: 'contracts', kind: 'string' },
  ]);
  const kubeconfig = str(args, 'kubeconfig');
  const inCluster = args.flags['in-cluster'] === true;
  const context = str(args, 'context');
  if (kubeconfig && inCluster) throw new UsageError('use either --kubeconfig FILE or --in-cluster, not both');
  if (context && inCluster) throw new UsageError('--context picks a kubeconfig context; it cannot be used with --in-cluster');
  const kube = Boolean(kubeconfig || context || inCluster);
  if (kube && list(args, 'config').length)
    throw new UsageError('use either --config PATH or a cluster (--kubeconfig/--context/--in-cluster), not both');
  const paths: string[] = [];
  for (const p of list(args, 'config')) {
    if (p !== '-') {
      paths.push(resolve(cwd, p));
      continue;
    }
    // A server outlives stdin: keep what was piped in as a file the file source can watch.
    const dir = mkdtempSync(join(tmpdir(), 'meshscope-stdin-'));
    const file = join(dir, 'stdin.yaml');
    writeFileSync(file, await stdin());
    paths.push(file);
  }
  const runtime: RuntimeConfig = { xdsPort: portFlag(args, 'xds-port', 15010) };
  if (args.flags['allow-apply'] === true) runtime.allowApply = true;
  const tokenFile = str(args, 'auth-token-file');
  if (tokenFile) runtime.authTokenFile = resolve(cwd, tokenFile);
  const contracts = str(args, 'contracts');
  if (contracts) runtime.contracts = resolve(cwd, contracts);
  if (paths.length) runtime.config = paths;
  const namespaces = [...new Set(list(args, 'namespace'))];
  if (kube) {
    if (namespaces.length) runtime.namespaces = namespaces;
    if (kubeconfig) runtime.kubeconfig = resolve(cwd, kubeconfig);
    if (context) runtime.context = context;
    if (inCluster) runtime.inCluster = true;
  } else if (namespaces.length > 1) {
    throw new UsageError('--namespace is repeatable only with a cluster (--kubeconfig/--context/--in-cluster)');
  } else if (namespaces[0]) {
    runtime.namespace = namespaces[0];
  }
  return { port: portFlag(args, 'port', 3000), runtime };
}

/** `Kubernetes (kubeconfig F, context C, namespaces a, b)` for the startup line. */
function kubeTarget(r: RuntimeConfig): string {
  const parts = [r.inCluster ? 'in-cluster' : `kubeconfig ${r.kubeconfig ?? '$KUBECONFIG or ~/.kube/config'}`];
  if (r.context) parts.push(`context ${r.context}`);
  parts.push(r.namespaces?.length ? `namespaces ${r.namespaces.join(', ')}` : 'all namespaces');
  return `Kubernetes (${parts.join(', ')})`;
}

function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { ...opts, stdio: 'inherit' });
    const forward = (sig: NodeJS.Signals) => () => {
      if (child.exitCode === null) child.kill(sig);
    };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.on('error', () => done(1));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      done(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1));
    });
  });
}

export async function serveCommand(argv: readonly string[], io: Io, root: string): Promise<number> {
  const plan = await planServe(argv, process.cwd());
  const nextBin = createRequire(join(root, 'package.json')).resolve('next/dist/bin/next');
  // The sandbox apply token: --auth-token-file or MESHSCOPE_AUTH_TOKEN when given, else a random one made
  // here, handed to the server process and printed on the start-up line (the only place it appears).
  const generated = plan.runtime.authTokenFile || process.env.MESHSCOPE_AUTH_TOKEN ? undefined : randomToken();
  const env = {
    NEXT_TELEMETRY_DISABLED: '1',
    ...process.env,
    [ENV_VAR]: JSON.stringify(plan.runtime),
    MESHSCOPE_ROOT: root,
    ...(generated ? { MESHSCOPE_APPLY_TOKEN: generated } : {}),
  };
  // One build at a time per dist dir; a serve that waited finds the build up to date. An up-to-date
  // build takes no lock: the image's root filesystem is read-only in the cluster (deploy/deployment.yaml).
  const code = !buildStatus(root).needed
    ? 0
    : await withLock(join(root, `${distDir()}.lock`), async () => {
        const build = buildStatus(root);
        if (!build.needed) return 0;
        io.stderr.write(`meshscope: building the web app (${build.reason})…\n`);
        return preservingFile(join(root, 'tsconfig.json'), () =>
          run(process.execPath, [nextBin, 'build'], { cwd: root, env: { ...env, NODE_ENV: 'production' } }),
        );
      });
  if (code !== 0) {
    io.stderr.write(`meshscope: next build failed (exit ${code})\n`);
    return code;
  }
  const what = plan.runtime.config
    ? plan.runtime.config.join(', ')
    : sourceMode(plan.runtime) === 'kube'
      ? kubeTarget(plan.runtime)
      : 'the demo mesh';
  const apply = generated
    ? `; sandbox apply token: ${generated}`
    : `; sandbox apply token from ${plan.runtime.authTokenFile ? '--auth-token-file' : 'MESHSCOPE_AUTH_TOKEN'}`;
  const gate = sourceMode(plan.runtime) === 'kube' ? (plan.runtime.allowApply ? ', cluster apply allowed' : ', cluster apply off') : '';
  io.stderr.write(`meshscope: serving ${what} on http://localhost:${plan.port} (xDS :${plan.runtime.xdsPort}${gate})${apply}\n`);
  return run(process.execPath, [nextBin, 'start', '-p', String(plan.port)], { cwd: root, env: { ...env, NODE_ENV: 'production' } });
}
