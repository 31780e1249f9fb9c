// Server-sent events: `proxies` events ("proxy X changed") fed by the runtime's store.onChange.
// Transport-free: returns a ReadableStream a Next route handler wraps in a Response.
import type { MeshEvent } from '../impact/types';

export type { MeshEvent } from '../impact/types';

export type Subscribe = (listener: (e: MeshEvent) => void) => () => void;

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

export const formatSse = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export interface EventStreamOptions {
  /** Sent first, so a client knows where it starts. */
  hello?: unknown;
  heartbeatMs?: number;
  signal?: AbortSignal;
  /** An event sent every `everyMs` (the demo's `traffic` counters), with what `data()` returns then. */
  periodic?: { event: string; everyMs: number; data: () => unknown };
}

export function eventStream(subscribe: Subscribe, opts: EventStreamOptions = {}): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (chunk: string) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(chunk));
        } catch {
          cleanup();
        }
      };
      send(formatSse('hello', opts.hello ?? {}));
      const unsubscribe = subscribe((e) => send(formatSse('proxies', e)));
      const timer = setInterval(() => send(': keep-alive\n\n'), opts.heartbeatMs ?? 15_000);
      timer.unref?.();
      const p = opts.periodic;
      const ticker = p ? setInterval(() => send(formatSse(p.event, p.data())), p.everyMs) : undefined;
      ticker?.unref?.();
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        if (ticker) clearInterval(ticker);
        unsubscribe();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      opts.signal?.addEventListener('abort', () => cleanup(), { once: true });
    },
    cancel() {
      cleanup();
    },
  });
}
