'use client';
import { useLive } from './LiveContext';

/** ● live / ○ connecting / ○ offline, with the last change in its tooltip. */
export function LiveIndicator() {
  const { state, last } = useLive();
  const title = last
    ? `last change: snapshot v${last.version}, ${last.proxies.length} prox${last.proxies.length === 1 ? 'y' : 'ies'}${last.endpointsOnly ? ' (endpoints only)' : ''}`
    : state === 'live'
      ? 'subscribed to /api/events; views refresh when the mesh changes'
      : state === 'offline'
        ? 'the event stream closed: reload the page to reconnect'
        : 'connecting to /api/events';
  return (
    <span className={`live live-${state}`} data-testid="live-state" title={title} aria-live="polite">
      {state === 'live' ? '● live' : state === 'connecting' ? '○ connecting' : '○ offline'}
    </span>
  );
}
