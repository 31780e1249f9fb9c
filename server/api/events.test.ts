// The SSE stream: `hello` first, then one `proxies` event per change; unsubscribes when cancelled.
import { describe, expect, it } from 'vitest';
import { eventStream, formatSse, type MeshEvent } from './events';

describe('eventStream', () => {
  it('sends hello, then proxies events in text/event-stream framing, and unsubscribes on cancel', async () => {
    const listeners = new Set<(e: MeshEvent) => void>();
    const stream = eventStream(
      (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      { hello: { version: 1 } },
    );
    const reader = stream.getReader();
    const dec = new TextDecoder();
    expect(dec.decode((await reader.read()).value)).toBe('event: hello\ndata: {"version":1}\n\n');
    expect(listeners.size).toBe(1);
    const e: MeshEvent = { version: 2, proxies: ['a.default'], endpointsOnly: false, errors: 0 };
    for (const l of listeners) l(e);
    expect(dec.decode((await reader.read()).value)).toBe(formatSse('proxies', e));
    await reader.cancel();
    expect(listeners.size).toBe(0);
  });

  it('closes and unsubscribes when the request aborts', async () => {
    const listeners = new Set<(e: MeshEvent) => void>();
    const ac = new AbortController();
    const reader = eventStream(
      (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      { signal: ac.signal },
    ).getReader();
    await reader.read();
    ac.abort();
    expect((await reader.read()).done).toBe(true);
    expect(listeners.size).toBe(0);
  });

  it('sends the periodic event (the demo traffic counters) every interval, and stops it on abort', async () => {
    const ac = new AbortController();
    let n = 0;
    const reader = eventStream(() => () => undefined, {
      signal: ac.signal,
      periodic: { event: 'traffic', everyMs: 10, data: () => ({ n: ++n }) },
    }).getReader();
    const dec = new TextDecoder();
    await reader.read(); // hello
    expect(dec.decode((await reader.read()).value)).toBe(formatSse('traffic', { n: 1 }));
    expect(dec.decode((await reader.read()).value)).toBe(formatSse('traffic', { n: 2 }));
    ac.abort();
    const calls = n;
    await new Promise((r) => setTimeout(r, 40));
    expect(n).toBe(calls);
  });
});
