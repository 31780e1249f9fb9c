// AuthorizationPolicy validation as Istio's webhook does it (pkg/config/validation ValidateAuthorizationPolicy).
import { describe, expect, it } from 'vitest';
import { validateIstioSpec } from '../parse/validate';

const issues = (spec: unknown) => validateIstioSpec('AuthorizationPolicy', spec).issues.map((i) => `${i.path}: ${i.message}`);

describe('AuthorizationPolicy validation', () => {
  it('accepts an ALLOW policy with from/to/when and an empty rule', () => {
    expect(
      issues({
        selector: { matchLabels: { app: 'reviews' } },
        rules: [
          {
            from: [{ source: { principals: ['cluster.local/ns/default/sa/x'], ipBlocks: ['10.0.0.0/8'] } }],
            to: [{ operation: { methods: ['GET'], paths: ['/reviews/*'], ports: ['9080'] } }],
            when: [{ key: 'request.headers[x-user]', values: ['a'] }],
          },
          {},
        ],
      }),
    ).toEqual([]);
  });

  it('rejects what the webhook rejects, each at its field path', () => {
    expect(
      issues({
        selector: { matchLabels: { app: 'a' } },
        targetRefs: [{ kind: 'Gateway', name: 'gw' }],
        action: 'CUSTOM',
        rules: [
          {
            from: [{ source: {} }],
            to: [{ operation: { ports: ['99999'], paths: ['reviews'] } }],
            when: [{ key: 'source.foo', values: ['x'] }, { key: 'source.ip' }],
          },
        ],
      }),
    ).toEqual([
      'spec: only one of targetRefs or workloadSelector can be set',
      'spec.provider: must specify a provider for the CUSTOM action',
      'spec.rules[0].from[0].source: `from.source` must not be empty',
      'spec.rules[0].to[0].operation.ports[0]: invalid port: 99999',
      'spec.rules[0].to[0].operation.paths[0]: invalid path "reviews": must start with "/" or "*"',
      'spec.rules[0].when[0].key: unknown attribute: source.foo',
      'spec.rules[0].when[1]: at least one of values or notValues must be set for key: source.ip',
    ]);
  });

  it('rejects an unknown action with its path', () => {
    expect(issues({ action: 'MAYBE' })[0]).toMatch(/^spec\.action: /);
  });
});
