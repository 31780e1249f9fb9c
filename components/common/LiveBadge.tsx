'use client';
import { useMeshEvents } from '@/components/data/useMeshEvents';

/** Connects the page to /api/events and shows whether it is live. */
export function LiveBadge() {
  const { state, last } = useMeshEvents();
  return (
    <span className={`live live-${state}`} data-testid="live-state" title={last ? `last change: version ${last.version}` : undefined}>
      {state === 'live' ? '● live' : state === 'connecting' ? '○ connecting' : '○ offline'}
    </span>
  );
}
