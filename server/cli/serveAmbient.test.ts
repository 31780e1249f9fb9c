// `serve --ambient` and the start-up line (issue #20 §1: "the start-up line says which").
import { describe, expect, it } from 'vitest';
import { planServe, readyLine } from './commands/serve';

const ready = {
  type: 'meshscope-ready' as const,
  http: 'http://127.0.0.1:3000',
  xds: '127.0.0.1:15010',
  xdsState: { state: 'listening' as const, port: 15010 },
};

describe('serve --ambient', () => {
  it('puts the ambient profile in the runtime config; without it nothing changes', async () => {
    expect((await planServe(['--ambient', '--config', 'x.yaml'], '/tmp')).runtime.ambient).toBe(true);
    expect((await planServe(['--config', 'x.yaml'], '/tmp')).runtime.ambient).toBeUndefined();
  });
  it('the start-up line says why the ambient profile is on, and is as before when it is off', () => {
    expect(readyLine('the demo mesh', { ...ready, ambient: '--ambient' })).toBe(
      'meshscope: serving the demo mesh on http://127.0.0.1:3000 (xDS 127.0.0.1:15010, ambient profile on: --ambient)\n',
    );
    expect(readyLine('the demo mesh', ready)).toBe('meshscope: serving the demo mesh on http://127.0.0.1:3000 (xDS 127.0.0.1:15010)\n');
  });
});
