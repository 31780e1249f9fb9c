// LiveError classification across module copies: Next bundles the runtime (instrumentation.ts: the archive's
// LiveSource) apart from the route handlers, so a LiveError reaches liveFailure as an instance of another copy
// of the class. The contract (issue 21 §2): an unknown pod is 404 with a non-empty stage, never a 502.
import { describe, expect, it } from 'vitest';
import { liveFailure } from '../api/live';
import { isLiveError, LiveError } from './types';

/** A second copy of the class, as a separately bundled chunk holds it. */
class OtherLiveError extends Error {
  constructor(
    readonly status: number,
    readonly stage: string,
    message: string,
  ) {
    super(message);
    this.name = 'LiveError';
  }
}

describe('isLiveError / liveFailure', () => {
  it('a LiveError of another module copy keeps its status and stage', () => {
    const e = new OtherLiveError(404, 'proxy', 'pod "ghost.default" has no config dump in br.tgz');
    expect(isLiveError(e)).toBe(true);
    expect(liveFailure(e)).toEqual({ status: 404, body: { error: 'pod "ghost.default" has no config dump in br.tgz', stage: 'proxy' } });
    expect(liveFailure(new LiveError(403, 'portforward', 'forbidden'))).toMatchObject({ status: 403, body: { stage: 'portforward' } });
  });

  it('anything else (another name, an unknown status, an empty stage) is a 502 stage proxy', () => {
    for (const e of [
      new Error('boom'),
      new OtherLiveError(500, 'proxy', 'x'),
      new OtherLiveError(404, '', 'x'),
      { name: 'LiveError' },
      null,
    ])
      expect(liveFailure(e)).toMatchObject({ status: 502, body: { stage: 'proxy' } });
  });
});
