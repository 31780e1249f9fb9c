// `meshscope serve [--config PATH…] [--kubeconfig FILE [--context C] | --context C | --in-cluster]
//                  [--namespace NS]… [--port 3000] [--xds-port 15010] [--address 127.0.0.1]
//                  [--allowed-host NAME]… [--auth-token-file F] [--allow-apply] [--contracts FILE]
//                  [--live-config [--proxy-admin-port 15000]]
//                  [--demo-traffic | --no-demo-traffic] [--demo-rate N] [--demo-base 127.A.B]`
// (the demo data plane, server/demo: on by default for the embedded demo mesh; `--demo-traffic` runs it on
// a file source whose pods carry loopback IPs.)
// (`--namespace`: with files, the namespace of objects that name none; with a cluster, repeatable,
// the namespaces to watch instead of the whole cluster.)
// HTTP and ADS bind `--address` (else MESHSCOPE_ADDRESS, else loopback). `--auth-token-file` (else MESHSCOPE_AUTH_TOKEN)
// protects UI and API with a bearer token; MESHSCOPE_MAX_BODY_BYTES changes the 8 MiB body limit.
// Builds the Next app when needed, then runs `next start` as a child with MESHSCOPE_CONFIG set
// (serveChild.ts: signals forwarded, the child exits if this process dies), and exits with its status.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomToken } from '../../api/auth';
import { MAX_HEADER_BYTES } from '../../api/httpGuard';
import { bindAddress, ENV_VAR, sourceMode, type RuntimeConfig } from '../../api/runtimeConfig';
import { isDemoBase } from '../../demo/demoBase';
import { list, parseArgs, portFlag, str, UsageError } from '../args';
import { buildStatus, distDir, preservingFile } from '../build';
import { chooseAllocator, serverHeapFlags } from '../allocator';
import { withLock } from '../buildLock';
import { readStdin } from '../load';
import type { ReadyMessage } from '../childLink';
import type { Io } from './common';
import { runChild, runPlain } from './serveChild';
import { SIGN_IN_FLAGS, signInOptions, signInLine } from './serveSignIn';
import { SESSION_SECRET_ENV } from '../../auth/settings';

type Env = Readonly<Record<string, string | undefined>>;

/** Env var holding the token when no --auth-token-file is given. */
export const AUTH_TOKEN_ENV = 'MESHSCOPE_AUTH_TOKEN';
/** Env var giving the bind address when no --address is given (the image sets 0.0.0.0). */
export const ADDRESS_ENV = 'MESHSCOPE_ADDRESS';
/** Env var overriding the request body limit (bytes). */
export const MAX_BODY_ENV = 'MESHSCOPE_MAX_BODY_BYTES';

export interface ServePlan {
  port: number;
  runtime: RuntimeConfig;
}

export async function planServe(
  argv: readonly string[],
  cwd: string,
  stdin: () => Promise<string> = () => readStdin(),
  env: Env = process.env,
): Promise<ServePlan> {
  const args = parseArgs(argv, [
    { name: 'config', short: 'c', kind: 'string', repeat: true },
    { name: 'namespace', short: 'n', kind: 'string', repeat: true },
    { name: 'kubeconfig', kind: 'string' },
    { name: 'context', kind: 'string' },
    { name: 'in-cluster', kind: 'boolean' },
    { name: 'port', kind: 'string' },
    { name: 'xds-port', kind: 'string' },
    { name: 'address', kind: 'string' },
    { name: 'allowed-host', kind: 'string', repeat: true },
    { name: 'auth-token-file', kind: 'string' },
    { name: 'allow-apply', kind: 'boolean' },
    { name: 'contracts', kind: 'string' },
    { name: 'live-config', kind: 'boolean' },
    { name: 'proxy-admin-port', kind: 'string' },
    { name: 'mesh-config', kind: 'string' },
    { name: 'bug-report', kind: 'string' },
    { name: 'ambient', kind: 'boolean' },
    { name: 'demo-traffic', kind: 'boolean' },
    { name: 'no-demo-traffic', kind: 'boolean' },
    { name: 'demo-rate', kind: 'string' },
    { name: 'demo-base', kind: 'string' },
    { name: 'prometheus', kind: 'string' },
    ...SIGN_IN_FLAGS,
  ]);
  const kubeconfig = str(args, 'kubeconfig');
  const inCluster = args.flags['in-cluster'] === true;
  const context = str(args, 'context');
  if (kubeconfig && inCluster) throw new UsageError('use either --kubeconfig FILE or --in-cluster, not both');
  if (context && inCluster) throw new UsageError('--context picks a kubeconfig context; it cannot be used with --in-cluster');
  const kube = Boolean(kubeconfig || context || inCluster);
  if (kube && list(args, 'config').length)
    throw new UsageError('use either --config PATH or a cluster (--kubeconfig/--context/--in-cluster), not both');
  const bugReport = str(args, 'bug-report');
  if (kube && bugReport !== undefined)
    throw new UsageError('use either --bug-report FILE|DIR (offline) or a cluster (--kubeconfig/--context/--in-cluster), not both');
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
  const meshConfig = str(args, 'mesh-config');
  if (meshConfig) runtime.meshConfig = resolve(cwd, meshConfig);
  if (args.flags['ambient'] === true) runtime.ambient = true;
  if (paths.length) runtime.config = paths;
  if (bugReport !== undefined) runtime.bugReport = resolve(cwd, bugReport);
  const demoTraffic = args.flags['demo-traffic'] === true;
  if (demoTraffic && args.flags['no-demo-traffic'] === true) throw new UsageError('use either --demo-traffic or --no-demo-traffic');
  if (demoTraffic && kube) throw new UsageError('--demo-traffic needs the demo mesh or --config files whose pods have loopback IPs');
  if (demoTraffic || (!kube && !paths.length && bugReport === undefined && args.flags['no-demo-traffic'] !== true))
    runtime.demoTraffic = true;
  const rate = str(args, 'demo-rate');
  if (rate !== undefined) {
    if (!/^\d+$/.test(rate) || Number(rate) > 200)
      throw new UsageError(`--demo-rate takes 0 to 200 calls per second per client, got "${rate}"`);
    runtime.demoRate = Number(rate);
  }
  const base = str(args, 'demo-base');
  if (base !== undefined) {
    if (kube || paths.length || bugReport !== undefined)
      throw new UsageError('--demo-base moves the embedded demo mesh: it cannot be used with --config or a cluster');
    if (!isDemoBase(base))
      throw new UsageError(`--demo-base takes a loopback base 127.A.B (the demo pods become 127.A.B.x), got "${base}"`);
    runtime.demoBase = base;
  }
  // Observed traffic (docs/prometheus.md): --prometheus URL, else MESHSCOPE_PROMETHEUS_URL.
  const prometheus = str(args, 'prometheus') ?? (env.MESHSCOPE_PROMETHEUS_URL?.trim() || undefined);
  if (prometheus !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(prometheus);
    } catch {
      u = undefined;
    }
    if (!u || !/^https?:$/.test(u.protocol)) throw new UsageError(`--prometheus takes an http:// or https:// URL, got "${prometheus}"`);
    runtime.prometheus = prometheus;
  }
  if (args.flags['live-config'] === true) {
    if (!kube) throw new UsageError('--live-config reads pods through a cluster: give --kubeconfig, --context or --in-cluster');
    runtime.liveConfig = true;
  }
  if (str(args, 'proxy-admin-port') !== undefined) {
    if (!runtime.liveConfig) throw new UsageError('--proxy-admin-port goes with --live-config');
    runtime.proxyAdminPort = portFlag(args, 'proxy-admin-port', 15000);
    if (runtime.proxyAdminPort === 0) throw new UsageError('--proxy-admin-port must be a port number (1-65535), got "0"');
  }
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
  Object.assign(runtime, securityOptions(args, cwd, env));
  Object.assign(runtime, signInOptions(args, cwd, { kube, address: bindAddress(runtime), sharedToken: runtime.authToken !== undefined }));
  return { port: portFlag(args, 'port', 3000), runtime };
}

/** --address, --allowed-host, the token (file, else env) and the body limit (env). */
function securityOptions(args: ReturnType<typeof parseArgs>, cwd: string, env: Env): Partial<RuntimeConfig> {
  const out: Partial<RuntimeConfig> = {};
  const address = str(args, 'address') ?? (env[ADDRESS_ENV]?.trim() || undefined);
  if (address !== undefined) {
    if (isIP(address) === 0) throw new UsageError(`--address must be an IP address (127.0.0.1, ::1, 0.0.0.0, ::), got "${address}"`);
    out.address = address;
  }
  const hosts = [...new Set(list(args, 'allowed-host'))];
  for (const h of hosts) {
    if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(h))
      throw new UsageError(`--allowed-host takes a host name without port or scheme, got "${h}"`);
  }
  if (hosts.length) out.allowedHosts = hosts;
  const file = str(args, 'auth-token-file');
  let token: string | undefined;
  if (file !== undefined) {
    try {
      token = readFileSync(resolve(cwd, file), 'utf8').trim();
    } catch (e) {
      throw new UsageError(`--auth-token-file ${file}: ${(e as Error).message}`);
    }
    if (!token) throw new UsageError(`--auth-token-file ${file} is empty`);
  } else if (env[AUTH_TOKEN_ENV]?.trim()) {
    token = env[AUTH_TOKEN_ENV]?.trim();
  }
  if (token !== undefined) {
    if (/\s/.test(token)) throw new UsageError('the auth token must not contain whitespace');
    out.authToken = token;
  }
  const limit = env[MAX_BODY_ENV];
  if (limit !== undefined && limit.trim() !== '') {
    if (!/^\d+$/.test(limit.trim()) || Number(limit) < 1)
      throw new UsageError(`${MAX_BODY_ENV} must be a positive number of bytes, got "${limit}"`);
    out.maxBodyBytes = Number(limit);
  }
  return out;
}

/** `Kubernetes (kubeconfig F, context C, namespaces a, b)` for the startup line. */
function kubeTarget(r: RuntimeConfig): string {
  const parts = [r.inCluster ? 'in-cluster' : `kubeconfig ${r.kubeconfig ?? '$KUBECONFIG or ~/.kube/config'}`];
  if (r.context) parts.push(`context ${r.context}`);
  parts.push(r.namespaces?.length ? `namespaces ${r.namespaces.join(', ')}` : 'all namespaces');
  return `Kubernetes (${parts.join(', ')})`;
}

/** `meshscope serve --help`: every flag. */
export const SERVE_USAGE = `usage: meshscope serve [flags]

sources (one of; none: the embedded demo mesh)
  --config PATH…                files and directories (*.yaml|*.yml|*.json, multi-document), repeated, or - for stdin
  --kubeconfig FILE [--context C] | --context C | --in-cluster     a cluster (list/watch, read-only)
  --namespace NS…               files: the namespace of objects with none; a cluster: the namespaces to watch
  --mesh-config FILE            the mesh config YAML (replaces the ConfigMap istio-system/istio)
listening (loopback unless --address says otherwise)
  --port 3000  --xds-port 15010  --address IP  --allowed-host NAME…
sign-in (docs/security.md; a non-loopback --address refuses to start without --auth)
  --auth none|token|header|openid            how users sign in (none: the default on loopback)
  --i-understand-this-is-open                with --auth none on a non-loopback address
  --auth-header-trusted-cidrs CIDR[,CIDR…]   header mode: peers allowed to name users
  --auth-header-user NAME                    header mode: default X-Forwarded-User
  --auth-header-groups NAME                  header mode: default X-Forwarded-Groups
  --openid-issuer URL  --openid-client-id ID  --openid-client-secret-file F     openid mode
  --audit-log FILE                           applies and resets as JSON lines (also on stdout)
  --auth-token-file F                        --auth none only: the bearer token for UI, API and apply
writes and checks
  --allow-apply                 let the sandbox apply drafts to a cluster (dry run first; as the user with sign-in)
  --contracts FILE              routing contracts run on every snapshot
demo
  --demo-traffic | --no-demo-traffic  --demo-rate N  --demo-base 127.A.B
observed traffic (docs/prometheus.md)
  --prometheus URL              a Prometheus scraping the mesh's istio_requests_total (env MESHSCOPE_PROMETHEUS_URL)
`;

export async function serveCommand(argv: readonly string[], io: Io, root: string): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(SERVE_USAGE);
    return 0;
  }
  const plan = await planServe(argv, process.cwd());
  const nextBin = createRequire(join(root, 'package.json')).resolve('next/dist/bin/next');
  // The sandbox apply token: --auth-token-file or MESHSCOPE_AUTH_TOKEN when given, else a random one made
  // here, handed to the server process and printed on the start-up line (the only place it appears).
  // (planServe already read --auth-token-file / MESHSCOPE_AUTH_TOKEN into authToken.)
  const generated = plan.runtime.authToken ? undefined : randomToken();
  const env = {
    NEXT_TELEMETRY_DISABLED: '1',
    ...process.env,
    [ENV_VAR]: JSON.stringify(plan.runtime),
    MESHSCOPE_ROOT: root,
    ...(generated ? { MESHSCOPE_APPLY_TOKEN: generated } : {}),
    // Sessions and CSRF tokens are signed with it (server/auth/session.ts); replicas must share one.
    [SESSION_SECRET_ENV]: process.env[SESSION_SECRET_ENV]?.trim() || randomToken(),
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
          runPlain(process.execPath, [nextBin, 'build'], { cwd: root, env: { ...env, NODE_ENV: 'production' } }),
        );
      });
  if (code !== 0) {
    io.stderr.write(`meshscope: next build failed (exit ${code})\n`);
    return code;
  }
  const what =
    plan.runtime.config || plan.runtime.bugReport
      ? [...(plan.runtime.config ?? []), ...(plan.runtime.bugReport ? [`bug report ${plan.runtime.bugReport}`] : [])].join(', ')
      : sourceMode(plan.runtime) === 'kube'
        ? kubeTarget(plan.runtime)
        : 'the demo mesh';
  const address = bindAddress(plan.runtime);
  const apply =
    plan.runtime.auth && plan.runtime.auth !== 'none'
      ? signInLine(plan.runtime)
      : generated
        ? `; sandbox apply token: ${generated}`
        : `; token required (UI, API and sandbox apply), from ${plan.runtime.authTokenFile ? '--auth-token-file' : 'MESHSCOPE_AUTH_TOKEN'}`;
  const gate = sourceMode(plan.runtime) === 'kube' ? (plan.runtime.allowApply ? ', cluster apply allowed' : ', cluster apply off') : '';
  // Node's header limit above the proxy's URL limit, so an over-long URL gets its 414, not a bare 431.
  // bin/peer-address.mjs stamps each request with its socket's address (header sign-in trusts only its CIDRs).
  // Its young generation and V8 worker pool sized for connect waves (server/cli/allocator.ts SERVER_HEAP_FLAGS).
  const nodeFlags = [
    `--max-http-header-size=${MAX_HEADER_BYTES}`,
    ...serverHeapFlags(process.env),
    '--import',
    pathToFileURL(join(root, 'bin', 'peer-address.mjs')).href,
  ];
  // The server child's allocator (server/cli/allocator.ts): jemalloc when the library is at hand (LD_PRELOAD),
  // else the system's; the start-up line says which. MESHSCOPE_ALLOCATOR=system opts out.
  const alloc = chooseAllocator({ env: process.env });
  return runChild(process.execPath, [...nodeFlags, nextBin, 'start', '-p', String(plan.port), '-H', address], {
    cwd: root,
    env: { ...env, NODE_ENV: 'production', ...alloc.env },
    onReady: (m) => io.stderr.write(readyLine(what, m, { gate: `${gate}, allocator: ${alloc.text}`, after: apply })),
  });
}

/**
 * The start-up line, with the addresses the child really bound (`gate` inside the parentheses, `after`
 * at the end); a failed ADS bind is said plainly.
 */
export function readyLine(what: string, m: ReadyMessage, extra: { gate?: string; after?: string } = {}): string {
  const after = extra.after ?? '';
  if (m.xdsState.state === 'failing') {
    return `meshscope: serving ${what} on ${m.http}, but NOT READY: ${m.xdsState.error} (/api/healthz answers 503)${after}\n`;
  }
  const xds = m.xds ? `xDS ${m.xds}` : 'xDS off';
  const ambient = m.ambient ? `, ambient profile on: ${m.ambient}` : '';
  return `meshscope: serving ${what} on ${m.http} (${xds}${extra.gate ?? ''}${ambient})${after}\n`;
}
