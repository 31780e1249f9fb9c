// Sidecar ingress listener validation, as pkg/config/validation ValidateSidecar checks it
// (validation_test.go TestValidateSidecar: "ingress with invalid default endpoint IP", "... port", unix endpoints).
import { describe, expect, it } from 'vitest';
import { validateIstioSpec } from '../parse/validate';

const sidecar = (ingress: Record<string, unknown>) => ({
  ingress: [{ port: { number: 9080, protocol: 'HTTP', name: 'http' }, ...ingress }],
});
const issues = (ingress: Record<string, unknown>) => validateIstioSpec('Sidecar', sidecar(ingress)).issues;

describe('Sidecar ingress defaultEndpoint and bind', () => {
  it.each(['127.0.0.1:8080', '0.0.0.0:8080', '[::1]:8080', '[::]:8080', ':8080', 'unix:///var/run/app.sock'])('%s is valid', (de) => {
    expect(issues({ defaultEndpoint: de })).toEqual([]);
  });

  it.each([
    ['1.1.1.1:8080', 'must be of form 127.0.0.1:<port>'],
    ['127.0.0.1:http', 'is not a number'],
    ['127.0.0.1:70000', '1..65535'],
    ['127.0.0.1', 'missing port'],
    ['unix://', 'must not be empty'],
  ])('%s is rejected at spec.ingress[0].defaultEndpoint', (de, message) => {
    expect(issues({ defaultEndpoint: de })).toContainEqual({
      path: 'spec.ingress[0].defaultEndpoint',
      message: expect.stringContaining(message),
    });
  });

  it('bind must be an IP address', () => {
    expect(issues({ bind: 'localhost' })).toEqual([{ path: 'spec.ingress[0].bind', message: 'localhost is not a valid IP address' }]);
    expect(issues({ bind: '127.0.0.1' })).toEqual([]);
  });
});
