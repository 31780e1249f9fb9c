// The link between `meshscope serve` (parent) and the `next start` child it runs, over the IPC channel
// the parent opens (serveChild.ts). The child tells the parent the addresses it really bound (HTTP port
// 0 and xDS port 0 pick free ports) and whether ADS could bind at all; and it exits when the parent is
// gone — killed by SIGKILL, or by SIGHUP before it could forward anything — so no orphan keeps the
// ports. Two signals of a dead parent: the IPC channel disconnects, and (belt and braces, in case
// the channel was never opened or is kept by another process) the parent pid changes.
import { hostPort } from '../api/runtimeConfig';
import type { XdsState } from '../api/types';

/** The one message the child sends. */
export interface ReadyMessage {
  type: 'meshscope-ready';
  /** `http://127.0.0.1:3000` */
  http: string;
  /** `127.0.0.1:15010`, or undefined when ADS is off. */
  xds?: string;
  xdsState: XdsState;
  /** Why istiod's ambient profile is on (`--ambient`, or what the cluster says); absent when it is off. */
  ambient?: string;
}

export const isReadyMessage = (m: unknown): m is ReadyMessage =>
  typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'meshscope-ready';

/** Env var carrying the parent's pid to the child (the watchdog compares process.ppid with it). */
export const PARENT_PID_ENV = 'MESHSCOPE_PARENT_PID';

export interface ChildRuntime {
  xdsSettled: Promise<XdsState>;
  /** Why the ambient profile is on, if it is (runtime.ambient). */
  ambient?(): string | undefined;
  stop(): Promise<void>;
}

/**
 * Child side. No-op unless started by `meshscope serve` (PARENT_PID_ENV set). `address` is the bound
 * address; the HTTP port is what Next.js bound (it sets process.env.PORT once listening).
 */
export function linkToParent(rt: ChildRuntime, address: string, env: NodeJS.ProcessEnv = process.env): void {
  const parentPid = Number(env[PARENT_PID_ENV]);
  if (!Number.isInteger(parentPid) || parentPid <= 0) return;
  let leaving = false;
  const leave = (why: string) => {
    if (leaving) return;
    leaving = true;
    console.error(`meshscope: ${why}; stopping`);
    const bye = setTimeout(() => process.exit(0), 1_000);
    bye.unref();
    void rt.stop().finally(() => process.exit(0));
  };
  process.on('disconnect', () => leave('the meshscope serve process is gone (IPC channel closed)'));
  const watchdog = setInterval(() => {
    if (process.ppid !== parentPid) leave(`the meshscope serve process (pid ${parentPid}) is gone`);
  }, 500);
  watchdog.unref();
  if (!process.send || !process.connected) return;
  void rt.xdsSettled.then((xds) => {
    const port = env.PORT ?? '';
    const msg: ReadyMessage = {
      type: 'meshscope-ready',
      http: `http://${hostPort(address, port)}`,
      xdsState: xds,
      ...(xds.state === 'listening' ? { xds: hostPort(address, xds.port) } : {}),
      ...(rt.ambient?.() ? { ambient: rt.ambient?.() } : {}),
    };
    if (process.connected) process.send?.(msg);
  });
}
