import { describe, expect, it } from 'vitest';
import { TYPE } from '../envoy/typeUrls';
import { shouldRespond, subscriptionOf, type RequestKind, type WatchView } from './shouldRespond';

// Expected outcomes follow istiod pkg/xds/server.go ShouldRespond and the xDS protocol's ACK/NACK rules.
const watch = (names: string[], nonceSent: string | undefined, wildcard = false): WatchView => ({
  names: new Set(names),
  wildcard,
  ...(nonceSent !== undefined ? { nonceSent } : {}),
});

const cases: Array<{
  name: string;
  watch?: WatchView;
  typeUrl: string;
  nonce: string;
  names: string[];
  error?: boolean;
  kind: RequestKind;
  respond: boolean;
}> = [
  { name: 'first request on a stream (no watch): respond', typeUrl: TYPE.cluster, nonce: '', names: [], kind: 'initial', respond: true },
  {
    name: 'reconnect: empty nonce with an existing watch still responds (istiod: ResponseNonce == "")',
    watch: watch(['a'], '4'),
    typeUrl: TYPE.endpoint,
    nonce: '',
    names: ['a'],
    kind: 'initial',
    respond: true,
  },
  {
    name: 'reconnect to a new server: nonce from the old server, no watch here → respond',
    typeUrl: TYPE.listener,
    nonce: '17',
    names: [],
    kind: 'initial',
    respond: true,
  },
  {
    name: 'ACK: nonce matches, same names → no response',
    watch: watch(['a', 'b'], '3'),
    typeUrl: TYPE.endpoint,
    nonce: '3',
    names: ['b', 'a'],
    kind: 'ack',
    respond: false,
  },
  {
    name: 'ACK of a wildcard CDS → no response',
    watch: watch([], '2', true),
    typeUrl: TYPE.cluster,
    nonce: '2',
    names: [],
    kind: 'ack',
    respond: false,
  },
  {
    name: 'ACK with new names (Envoy/gRPC add a resource) → respond',
    watch: watch(['a'], '3'),
    typeUrl: TYPE.endpoint,
    nonce: '3',
    names: ['a', 'b'],
    kind: 'resubscribe',
    respond: true,
  },
  {
    name: 'ACK with fewer names → respond',
    watch: watch(['a', 'b'], '3'),
    typeUrl: TYPE.route,
    nonce: '3',
    names: ['b'],
    kind: 'resubscribe',
    respond: true,
  },
  {
    name: 'stale nonce → ignored',
    watch: watch(['a'], '5'),
    typeUrl: TYPE.endpoint,
    nonce: '4',
    names: ['a', 'b'],
    kind: 'stale',
    respond: false,
  },
  {
    name: 'NACK of the last response → recorded, no response',
    watch: watch(['a'], '5'),
    typeUrl: TYPE.endpoint,
    nonce: '5',
    names: ['a'],
    error: true,
    kind: 'nack',
    respond: false,
  },
  {
    name: 'NACK of an older response → stale',
    watch: watch(['a'], '5'),
    typeUrl: TYPE.endpoint,
    nonce: '2',
    names: ['a'],
    error: true,
    kind: 'stale',
    respond: false,
  },
  {
    name: 'named type with no names → unsubscribe (istiod shouldUnsubscribe)',
    watch: watch(['a'], '5'),
    typeUrl: TYPE.route,
    nonce: '5',
    names: [],
    kind: 'unsubscribe',
    respond: false,
  },
  {
    name: 'wildcard type with no names is not an unsubscribe',
    watch: watch(['x'], '5'),
    typeUrl: TYPE.listener,
    nonce: '5',
    names: [],
    kind: 'resubscribe',
    respond: true,
  },
];

describe('shouldRespond (istiod ShouldRespond table)', () => {
  for (const c of cases) {
    it(c.name, () => {
      const d = shouldRespond(c.watch, {
        typeUrl: c.typeUrl,
        responseNonce: c.nonce,
        resourceNames: c.names,
        ...(c.error ? { errorDetail: { code: 14, message: 'bad' } } : {}),
      });
      expect(d.kind).toBe(c.kind);
      expect(d.respond).toBe(c.respond);
    });
  }

  it('wildcard: LDS/CDS with no names, or any type naming "*" (xDS protocol wildcard rules)', () => {
    expect(subscriptionOf(TYPE.listener, []).wildcard).toBe(true);
    expect(subscriptionOf(TYPE.cluster, []).wildcard).toBe(true);
    expect(subscriptionOf(TYPE.cluster, ['a']).wildcard).toBe(false);
    expect(subscriptionOf(TYPE.cluster, ['*', 'a'])).toEqual({ wildcard: true, names: new Set(['a']) });
    expect(subscriptionOf(TYPE.endpoint, []).wildcard).toBe(false);
  });

  // The ACK check against the list that set the subscription (WatchView.requested) must decide exactly as the
  // Set comparison does (istiod ShouldRespond: same nonce and same resource names → ACK, else a resubscription).
  describe('ACK check against the list that set the subscription', () => {
    const requested = ['b', 'a', 'c'];
    const w: WatchView = { ...watch(requested, '7'), requested };
    const ask = (names: string[], nonce = '7', at: WatchView = w) =>
      shouldRespond(at, { typeUrl: TYPE.endpoint, responseNonce: nonce, resourceNames: names });

    it('the same list again is an ACK', () => {
      expect(ask(['b', 'a', 'c'])).toMatchObject({ kind: 'ack', respond: false });
    });
    it('the same names in another order, or repeated, are an ACK too (compared as a set)', () => {
      expect(ask(['a', 'b', 'c']).kind).toBe('ack');
      expect(ask(['a', 'b', 'c', 'a']).kind).toBe('ack');
    });
    it('a list that differs in one name, or lacks one, is a resubscription with the new set', () => {
      const d = ask(['b', 'a', 'd']);
      expect(d).toMatchObject({ kind: 'resubscribe', respond: true });
      expect(d.subscription?.names).toEqual(new Set(['a', 'b', 'd']));
      expect(ask(['b', 'a']).kind).toBe('resubscribe');
      expect(ask(['b', 'a', 'c', 'd']).kind).toBe('resubscribe');
    });
    it('the same list with a stale or empty nonce is stale / an initial request, as without the list', () => {
      expect(ask(['b', 'a', 'c'], '6').kind).toBe('stale');
      expect(ask(['b', 'a', 'c'], '').kind).toBe('initial');
    });
    it('a list that set a wildcard subscription ("*") ACKs only with the wildcard kept', () => {
      const star = ['*', 'x'];
      const ws: WatchView = { ...watch(['x'], '3', true), requested: star };
      expect(ask(['*', 'x'], '3', ws).kind).toBe('ack');
      expect(ask(['x'], '3', ws).kind).toBe('resubscribe');
    });
  });
});
