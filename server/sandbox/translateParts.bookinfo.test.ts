// translateParts.test.ts's checks on Istio's Bookinfo (../shared/fixtures: the conformance group, run where
// the fixtures are). Split out so a clone without ../shared still runs the in-repo cases (issue #25 §4).
import { describe, it } from 'vitest';
import { bookinfoBase, readBookinfo, reviewsSplit } from './testing';
import { expectExactBlastRadius, expectPartsEqualFull } from './translateParts.testing';

describe('sidecarListenersAndRoutes on Bookinfo', () => {
  it('every sidecar’s listeners, route configs and provenance equal translateProxy’s', () => expectPartsEqualFull(bookinfoBase()));
});

describe('blast radius = the exact per-proxy digest diff, on Bookinfo', () => {
  it('jason-v2-v3', () => expectExactBlastRadius(bookinfoBase(), readBookinfo('networking/virtual-service-reviews-jason-v2-v3.yaml')));
  it('50/50', () => expectExactBlastRadius(bookinfoBase(), reviewsSplit({ v1: 50, v2: 50 })));
});
