// meshscope's CLI entry (bin/meshscope.mjs runs its esbuild bundle, scripts/build-cli.mjs). DESIGN.md §3.
// Each command is imported when it runs (the bundle splits them into chunks), so `proxies` never loads the
// translator, the protobuf descriptors or the server: start-up only pays for what the command uses.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from './args';
import type { Io } from './commands/common';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const USAGE = `usage: meshscope <command> [flags]

  serve     [--config PATH…] [--kubeconfig FILE | --in-cluster] [--port 3000] [--xds-port 15010]
            [--allow-apply] [--auth-token-file F] [--contracts FILE] [--mesh-config FILE]
            [--live-config [--proxy-admin-port 15000]]   (kube: pods' own Envoy config, docs/live-config.md)
            [--demo-traffic | --no-demo-traffic] [--demo-rate N] [--demo-base 127.A.B]
            [--auth none|token|header|openid] …   (meshscope serve --help: every flag)
            the dashboard + xDS control plane (no --config: the embedded demo mesh, with its
            loopback data plane of real gRPC servers and xDS clients; --demo-traffic: the same on files)
  proxies   --config PATH… [-o json|table]
  translate --config PATH… --proxy POD.NAMESPACE [--type listeners|routes|clusters|endpoints|all] [--explain-patches]
  simulate  (--config PATH… --proxy POD.NAMESPACE | --dump config_dump.json) --mode outbound|inbound|gateway|waypoint
            --port N [--address IP] [--host AUTHORITY] [--path /p?q] [--method GET] [-H 'k: v']…
            [--protocol http|http2|tcp] [--tls plaintext|tls|mtls] [--sni NAME]
            (--bug-report FILE --proxy POD.NAMESPACE --on dump: on the pod's own dump in the archive;
            --on meshscope, the default, on meshscope's translation)
  analyze   --config PATH… [-o json|table]   (findings with Istio's codes; exit 1 on errors)
  diff      --config BASE… --draft FILE… [--proxy ID]… [-o json|text]
            what a draft would change: blast radius and semantic diffs per proxy (the sandbox)
  check     --config BASE… [--draft FILE…] --contracts FILE [-o json|text]
            routing contracts on the base (or the draft over it); exit 1 when one fails
  drift     (--expected A.json | --config PATH… --proxy POD.NAMESPACE) --actual B.json [-o json|text]
            (or --bug-report FILE --proxy POD.NAMESPACE: the pod's dump in the archive as actual)
            per-resource drift between two Envoy config dumps (or meshscope's translation and a dump;
            --dump B.json is the same as --actual); exit 1 when not in sync
  demo prometheus-config [--config DIR] [--demo-base 127.A.B]
            a ready prometheus.yml for the demo pods' sidecar metrics (docs/prometheus.md)
  ztunnel-config --config PATH… [--ambient] [all|workloads|services|policies] [-o json|table]
            what istiod sends ztunnel (WDS: workloads, services, authorization policies)

  --config takes files and directories (*.yaml|*.yml|*.json, multi-document), repeated, or - for stdin.
  --namespace NS applies to objects that have no namespace.
  --bug-report FILE.tar.gz|DIR (every command) reads an istioctl bug-report or OSSM must-gather: its cluster
  objects are inputs (alone or beside --config), its pods' config dumps feed drift and serve's /live, /drift.
  --mesh-config FILE (every command) is the mesh config YAML (MeshConfig); it replaces the "mesh" key of the
  ConfigMap istio in istio-system, which is read from the inputs otherwise (istiod's defaults without either).
  --ambient (every command) means istiod runs with the ambient profile (PILOT_ENABLE_AMBIENT=true); serve on a
  cluster turns it on by itself when istiod or a ztunnel DaemonSet says so.
`;

/** Commands that load --config files (their big files' parse may start on a worker first: ./earlyParse). */
const LOADING = new Set(['proxies', 'translate', 'simulate', 'analyze', 'diff', 'check', 'drift', 'ztunnel-config']);

export async function main(argv: readonly string[], ioIn: Io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const [cmd, ...rest] = argv;
  // Off unless MESHSCOPE_PARSE_WORKERS asks for workers (then not even its module is loaded).
  const wanted = /^\s*[1-9]/.test(process.env.MESHSCOPE_PARSE_WORKERS ?? '');
  const early = wanted && cmd !== undefined && LOADING.has(cmd) ? await (await import('./earlyParse')).startEarlyParse(rest) : undefined;
  const io: Io = early ? { ...ioIn, early } : ioIn;
  try {
    switch (cmd) {
      case 'serve':
        return await (await import('./commands/serve')).serveCommand(rest, io, REPO_ROOT);
      case 'proxies':
        return await (await import('./commands/proxies')).proxiesCommand(rest, io);
      case 'translate':
        return await (await import('./commands/translate')).translateCommand(rest, io);
      case 'simulate':
        return await (await import('./commands/simulate')).simulateCommand(rest, io);
      case 'analyze':
        return await (await import('./commands/analyze')).analyzeCommand(rest, io);
      case 'diff':
        return await (await import('./commands/diff')).diffCommand(rest, io);
      case 'check':
        return await (await import('./commands/check')).checkCommand(rest, io);
      case 'drift':
        return await (await import('./commands/drift')).driftCommand(rest, io);
      case 'demo':
        return await (await import('./commands/demo')).demoCommand(rest, io, REPO_ROOT);
      case 'ztunnel-config':
        return await (await import('./commands/ztunnelConfig')).ztunnelConfigCommand(rest, io);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        (cmd === undefined ? io.stderr : io.stdout).write(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        io.stderr.write(`meshscope: unknown command "${cmd}"\n\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`meshscope ${cmd}: ${e.message}\n`);
      return 2;
    }
    io.stderr.write(`meshscope ${cmd}: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  } finally {
    void early?.close();
  }
}
