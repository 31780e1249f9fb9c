// The view indexes carried from one snapshot to the next (carryViewIndexes, the push plane on every change) are
// invisible: over random edit sequences built incrementally (snapshotIncremental: unchanged arrays keep their
// identity, a pod move patches the pod list in place), every proxy of the next snapshot gets from the carried
// indexes what a snapshot with an empty memo (every index built from its own arrays) gives: its pod, service targets,
// key inputs (translate/proxyInputs.ts), visible and scoped services, DestinationRule picks, and both pod indexes
// answer as a linear scan. istiod's PushContext is rebuilt (or cloned and patched: push_context.go
// InitContext/updateContext) per push; its indexes must equal a fresh build's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edit, input, SLOTS } from '../../model/incrementalMesh.testing';
import { DEFAULT_OPTIONS, type MeshSnapshot } from '../../model/mesh';
import { buildSnapshot } from '../../model/snapshot';
import { SnapshotCache } from '../../model/snapshotCache';
import { applyEdit } from '../../model/snapshotEdits.testing';
import { SnapshotMemo } from '../../model/snapshotMemo';
import { proxyInputs } from '../proxyInputs';
import { buildProxyView, servicesVisibleTo } from './buildProxyView';
import { findPod, serviceTargets } from './serviceTargets';
import { carryViewIndexes, podNamed, podsByKey } from './snapshotIndex';

const O = DEFAULT_OPTIONS;
/** The same snapshot with an empty memo: every index made from its own arrays. */
const fresh = (s: MeshSnapshot): MeshSnapshot => ({ ...s, memo: new SnapshotMemo() });

/** Every index a proxy's key, view and CLAs read, built on `s` (what the plane has built when the next change comes). */
function warm(s: MeshSnapshot): void {
  for (const p of s.proxies) {
    proxyInputs(s, p, O);
    buildProxyView(s, p, O).destinationRule(p.namespace);
  }
  podsByKey(s);
}

function expectAsFresh(next: MeshSnapshot): void {
  const plain = fresh(next);
  for (const p of next.proxies) {
    expect(findPod(next, p)).toBe(findPod(plain, p));
    expect(serviceTargets(next, p)).toEqual(serviceTargets(plain, p));
    expect(proxyInputs(next, p, O)).toEqual(proxyInputs(plain, p, O));
    expect(servicesVisibleTo(next, p.namespace)).toEqual(servicesVisibleTo(plain, p.namespace));
    const view = buildProxyView(next, p, O);
    const other = buildProxyView(plain, p, O);
    expect(view.services).toEqual(other.services);
    for (const s of next.services) {
      expect(view.destinationRule(s.hostname)).toEqual(other.destinationRule(s.hostname));
      expect(view.inboundDestinationRule(s.hostname)).toEqual(other.inboundDestinationRule(s.hostname));
    }
  }
  for (const p of next.pods) {
    expect(podNamed(next, p.namespace, p.name)).toBe(next.pods.find((x) => x.namespace === p.namespace && x.name === p.name));
    expect(podsByKey(next).get(`${p.namespace}/${p.name}`)).toBe(
      [...next.pods].reverse().find((x) => x.namespace === p.namespace && x.name === p.name),
    );
  }
  expect([...podsByKey(next)]).toEqual([...podsByKey(plain)]);
}

describe('view indexes carried to the next snapshot (carryViewIndexes)', () => {
  const seen = { podMoves: 0, targetsCarried: 0 };
  it('answer as indexes built from scratch, after every step of random in-place edits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(59), { minLength: SLOTS, maxLength: SLOTS }),
        fc.array(edit, { minLength: 1, maxLength: 12 }),
        (initial, edits) => {
          const cache = new SnapshotCache();
          let inputs = initial.map((variant, slot) => input(slot, variant));
          let version = 1;
          let prev = buildSnapshot(inputs, { version, cache });
          for (const e of edits) {
            inputs = applyEdit(inputs, e, input);
            const next = buildSnapshot(inputs, { version: ++version, cache });
            warm(prev);
            carryViewIndexes(prev, next);
            if (prev.pods !== next.pods && prev.services === next.services) {
              seen.podMoves++;
              for (const p of next.proxies)
                if (prev.proxiesById.get(p.id) === p && serviceTargets(next, p) === serviceTargets(prev, p)) seen.targetsCarried++;
            }
            expectAsFresh(next);
            prev = next;
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the property above carried service targets across pod moves', () => {
    // Guards the generator: pods moved in place with the services unchanged, and targets were taken from the last snapshot.
    expect(seen.podMoves).toBeGreaterThan(0);
    expect(seen.targetsCarried).toBeGreaterThan(0);
  });
});
