// Sandbox apply on a file source: one file per object in the watched directory, only with confirm: true;
// the file watcher then loads it like any edit (real fs, real watcher, the real runtime).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeForTest, type MeshscopeRuntime } from '../../runtime';
import { waitFor } from '../../xds/testing/echo';
import { applySandbox } from '../sandboxApply';

const vs = (name: string, subset: string) =>
  `apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  hosts: [${name}]\n  http:\n  - route:\n    - destination: {host: ${name}, subset: ${subset}}\n`;
const svc = (name: string) =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  ports: [{name: http, port: 80}]\n`;

let dir: string;
let rt: MeshscopeRuntime;
const subsetOf = (name: string) =>
  (
    rt.snapshot().virtualServices.find((v) => v.meta.name === name)?.spec.http?.[0]?.route?.[0]?.destination as
      | { subset?: string }
      | undefined
  )?.subset;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'meshscope-apply-files-'));
  writeFileSync(join(dir, 'mixed.yaml'), `${svc('web')}---\n${vs('web', 'v1')}`);
  writeFileSync(join(dir, 'api-vs.yaml'), vs('api', 'v1'));
  rt = createRuntimeForTest({ config: [dir] }, { log: () => undefined });
  await rt.ready;
});
afterAll(async () => {
  await rt?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('apply on a file source', () => {
  it('without confirm: the plan (files to write), nothing written', async () => {
    const ctx = rt.applyContext();
    const res = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft: vs('cart', 'v2') });
    expect(res.body).toMatchObject({
      mode: 'files',
      applied: false,
      items: [{ op: 'put', file: join(dir, 'virtualservice-default-cart.yaml') }],
    });
    expect(existsSync(join(dir, 'virtualservice-default-cart.yaml'))).toBe(false);
  });

  it('confirm: a new object gets its own file; an object alone in its file is written there; the watcher loads both', async () => {
    const ctx = rt.applyContext();
    const res = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft: `${vs('cart', 'v2')}---\n${vs('api', 'v3')}`, confirm: true });
    expect(res.body).toMatchObject({
      applied: true,
      items: [{ file: join(dir, 'virtualservice-default-cart.yaml') }, { file: join(dir, 'api-vs.yaml') }],
    });
    expect(readFileSync(join(dir, 'api-vs.yaml'), 'utf8')).toContain('subset: v3');
    await waitFor(() => subsetOf('cart') === 'v2' && subsetOf('api') === 'v3', 'the watcher picks the files up');
  });

  it('an object defined in a file with other objects is refused (that file is never rewritten)', async () => {
    const ctx = rt.applyContext();
    const before = readFileSync(join(dir, 'mixed.yaml'), 'utf8');
    const res = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft: vs('web', 'v9'), confirm: true });
    expect(res.body).toMatchObject({
      applied: false,
      items: [{ ok: false, message: expect.stringContaining('mixed.yaml together with other objects') }],
    });
    expect(readFileSync(join(dir, 'mixed.yaml'), 'utf8')).toBe(before);
  });

  it('a deletion removes the object’s own file', async () => {
    const ctx = rt.applyContext();
    const draft =
      'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: cart\n  namespace: default\n  annotations:\n    sandbox.meshscope.io/delete: "true"\n';
    const res = await applySandbox(ctx, `Bearer ${ctx.token}`, { draft, confirm: true });
    expect(res.body).toMatchObject({ applied: true });
    expect(existsSync(join(dir, 'virtualservice-default-cart.yaml'))).toBe(false);
    await waitFor(() => subsetOf('cart') === undefined, 'the watcher drops it');
  });
});
