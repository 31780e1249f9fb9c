// `serve --live-config`: a LiveSource reading pods' Envoy config dumps through the API server's
// port-forward (kube mode). Per fetch: the pod is looked up (404 unknown / not running), one allow-listed
// admin GET `/config_dump?include_eds` goes through a port-forward to `--proxy-admin-port`, under a deadline
// (504), a byte cap (502 `limit`) and a concurrency limit; results are cached per pod for a few seconds.
// `withIstiod`: istiod's /debug/config_dump?proxyID=POD.NS through a port-forward to each running istiod pod
// (port 15014) until the one holding the proxy's connection answers.
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { adminGet } from './admin';
import { openTunnel } from './tunnel';
import { LiveError, type LiveDump, type LiveFetchOptions, type LiveSource } from './types';

export interface PortForwardOptions {
  /** Envoy's admin port in the pod (`--proxy-admin-port`, default 15000). */
  adminPort?: number;
  /** Per admin request (default 10 s). */
  timeoutMs?: number;
  /** Largest dump body accepted (default 64 MiB). */
  maxBytes?: number;
  /** Fetches running at once (default 3); more wait their turn. */
  concurrency?: number;
  /** How long a pod's dump is reused (default 5 s). */
  cacheMs?: number;
  /** istiod's namespace, label selector and debug port (istio-system, app=istiod, 15014). */
  istiodNamespace?: string;
  istiodSelector?: string;
  istiodPort?: number;
  /** The clock (tests); Date.now otherwise. */
  now?: () => number;
}

export const DEFAULT_ADMIN_PORT = 15000;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_DUMP_BYTES = 64 * 1024 * 1024;
export const DEFAULT_CONCURRENCY = 3;
export const DEFAULT_CACHE_MS = 5_000;

const ENVOY_DUMP_PATH = '/config_dump?include_eds';

/** POD.NS → [pod, ns]; the namespace is after the last dot (pod names may hold dots). */
export function splitProxyId(id: string): { pod: string; namespace: string } | undefined {
  const at = id.lastIndexOf('.');
  if (at <= 0 || at === id.length - 1) return undefined;
  const pod = id.slice(0, at);
  const namespace = id.slice(at + 1);
  const dns = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
  if (!dns.test(pod) || !dns.test(namespace) || pod.length > 253 || namespace.length > 63) return undefined;
  return { pod, namespace };
}

const statusOf = (e: unknown): number | undefined => {
  const c = (e as { code?: unknown })?.code;
  return typeof c === 'number' ? c : undefined;
};

export class PortForwardLiveSource implements LiveSource {
  private readonly opts: Required<Omit<PortForwardOptions, 'now'>> & { now: () => number };
  private readonly cache = new Map<string, { at: number; dump: Promise<LiveDump> }>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly kc: KubeConfig,
    opts: PortForwardOptions = {},
  ) {
    this.opts = {
      adminPort: opts.adminPort ?? DEFAULT_ADMIN_PORT,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: opts.maxBytes ?? DEFAULT_MAX_DUMP_BYTES,
      concurrency: Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY),
      cacheMs: opts.cacheMs ?? DEFAULT_CACHE_MS,
      istiodNamespace: opts.istiodNamespace ?? 'istio-system',
      istiodSelector: opts.istiodSelector ?? 'app=istiod',
      istiodPort: opts.istiodPort ?? 15014,
      now: opts.now ?? Date.now,
    };
  }

  fetch(proxyId: string, opts: LiveFetchOptions = {}): Promise<LiveDump> {
    const key = `${proxyId}\u0000${opts.withIstiod === true}`;
    const now = this.opts.now();
    for (const [k, v] of this.cache) if (now - v.at > this.opts.cacheMs) this.cache.delete(k);
    const hit = this.cache.get(key);
    if (hit) return hit.dump;
    const dump = this.limited(() => this.read(proxyId, opts.withIstiod === true));
    this.cache.set(key, { at: now, dump });
    // A failure is not kept: the next request tries again (RBAC fixed, pod restarted).
    dump.catch(() => {
      if (this.cache.get(key)?.dump === dump) this.cache.delete(key);
    });
    return dump;
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.opts.concurrency) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async read(proxyId: string, withIstiod: boolean): Promise<LiveDump> {
    const ref = splitProxyId(proxyId);
    if (!ref) throw new LiveError(404, 'proxy', `"${proxyId}" is not a proxy id POD.NAMESPACE`);
    await this.deadline(this.runningPod(ref.namespace, ref.pod), `reading pod ${ref.namespace}/${ref.pod}`);
    const fetchedAt = new Date(this.opts.now()).toISOString();
    const body = await this.get(ref.namespace, ref.pod, this.opts.adminPort, ENVOY_DUMP_PATH, 'admin');
    const configDump = parseDump(body, `pod ${ref.namespace}/${ref.pod} admin ${ENVOY_DUMP_PATH}`, 'admin');
    const out: LiveDump = { proxy: proxyId, source: 'portforward', fetchedAt, bytes: body.byteLength, configDump };
    if (withIstiod) out.istiodDump = await this.istiod(proxyId);
    return out;
  }

  /** `p`, or a 504 `timeout` LiveError once the per-request timeout passes (an API server that hangs). */
  private async deadline<T>(p: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new LiveError(504, 'timeout', `${what} did not answer within ${this.opts.timeoutMs / 1000} s`)),
        this.opts.timeoutMs,
      );
    });
    p.catch(() => undefined);
    try {
      return await Promise.race([p, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The pod, which must exist and be Running (404 otherwise, naming it). */
  private async runningPod(namespace: string, name: string): Promise<void> {
    let pod: { status?: { phase?: string } };
    try {
      pod = await this.kc.makeApiClient(CoreV1Api).readNamespacedPod({ name, namespace });
    } catch (e) {
      const code = statusOf(e);
      if (code === 404) throw new LiveError(404, 'pod', `pod ${namespace}/${name} not found`);
      if (code === 403) throw new LiveError(403, 'pod', `reading pod ${namespace}/${name} is forbidden: grant get on pods`);
      throw new LiveError(502, 'pod', `reading pod ${namespace}/${name} failed: ${code ? `HTTP ${code}` : (e as Error).message}`);
    }
    const phase = pod.status?.phase ?? 'Unknown';
    if (phase !== 'Running') throw new LiveError(404, 'pod', `pod ${namespace}/${name} is not running (phase ${phase})`);
  }

  /** One allow-listed GET through a fresh port-forward, under the deadline. */
  private async get(namespace: string, pod: string, port: number, path: string, stage: 'admin' | 'istiod'): Promise<Buffer> {
    const where = `pod ${namespace}/${pod} port ${port}`;
    let timer: NodeJS.Timeout | undefined;
    let close = () => {};
    let expired = false;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        close();
        reject(new LiveError(504, 'timeout', `GET ${path} on ${where} did not answer within ${this.opts.timeoutMs / 1000} s`));
      }, this.opts.timeoutMs);
    });
    const attempt = (async () => {
      const tunnel = await openTunnel(this.kc, namespace, pod, port);
      // A tunnel that opened after the deadline is closed at once (nobody waits for its answer).
      if (expired) {
        tunnel.close();
        throw new LiveError(504, 'timeout', `port-forward to ${where} opened after the deadline`);
      }
      close = () => tunnel.close();
      try {
        const answer = await adminGet(tunnel.stream, path, this.opts.maxBytes).catch((e: unknown) => {
          const text = tunnel.errorText();
          if (e instanceof LiveError && e.stage === 'admin' && text) throw new LiveError(502, stage, `GET ${path} on ${where}: ${text}`);
          throw e;
        });
        if (answer.status !== 200) {
          const snippet = answer.body.toString('utf8', 0, Math.min(answer.body.byteLength, 200)).trim();
          throw new LiveError(502, stage, `GET ${path} on ${where} answered HTTP ${answer.status}${snippet ? `: ${snippet}` : ''}`);
        }
        return answer.body;
      } finally {
        tunnel.close();
      }
    })();
    attempt.catch(() => undefined);
    try {
      return await Promise.race([attempt, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** istiod's view of the proxy: the first running istiod pod that answers for it. */
  private async istiod(proxyId: string): Promise<unknown> {
    const ns = this.opts.istiodNamespace;
    let pods: { metadata?: { name?: string }; status?: { phase?: string } }[];
    try {
      const list = await this.deadline(
        this.kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: ns, labelSelector: this.opts.istiodSelector }),
        `listing istiod pods in ${ns}`,
      );
      pods = list.items;
    } catch (e) {
      const code = statusOf(e);
      if (e instanceof LiveError) throw e;
      if (code === 403) throw new LiveError(403, 'istiod', `listing pods in ${ns} is forbidden: grant list on pods`);
      throw new LiveError(502, 'istiod', `listing istiod pods in ${ns} failed: ${code ? `HTTP ${code}` : (e as Error).message}`);
    }
    const running = pods.filter((p) => p.status?.phase === 'Running' && p.metadata?.name);
    if (running.length === 0) throw new LiveError(502, 'istiod', `no running istiod pod (${this.opts.istiodSelector}) in ${ns}`);
    const path = `/debug/config_dump?proxyID=${proxyId}`;
    const tried: string[] = [];
    for (const p of running) {
      const name = p.metadata?.name as string;
      try {
        const body = await this.get(ns, name, this.opts.istiodPort, path, 'istiod');
        return parseDump(body, `istiod ${ns}/${name} ${path}`, 'istiod');
      } catch (e) {
        if (e instanceof LiveError && (e.status === 403 || e.status === 504)) throw e;
        tried.push(`${name}: ${(e as Error).message}`);
      }
    }
    throw new LiveError(502, 'istiod', `no istiod pod answered for ${proxyId} (${tried.join('; ')})`);
  }
}

function parseDump(body: Buffer, what: string, stage: 'admin' | 'istiod'): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new LiveError(502, stage, `${what} is not JSON: ${(e as Error).message}`);
  }
}
