// `meshscope serve` cluster flags (issue 5): --kubeconfig / --context / --in-cluster / repeatable
// --namespace reach MESHSCOPE_CONFIG, round-trip through its schema, and become KubeSource options.
import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig, sourceMode } from '../../api/runtimeConfig';
import { kubeSourceOptions } from '../../runtime';
import { UsageError } from '../args';
import { planServe } from './serve';

describe('planServe with a cluster', () => {
  it('resolves --kubeconfig against the cwd and keeps --context and every --namespace (deduplicated, in order)', async () => {
    const plan = await planServe(
      ['--kubeconfig', 'kc.yaml', '--context', 'prod', '--namespace', 'shop', '-n', 'pay', '--namespace', 'shop', '--xds-port', '0'],
      '/project/x',
    );
    expect(plan.runtime).toEqual({ kubeconfig: '/project/x/kc.yaml', context: 'prod', namespaces: ['shop', 'pay'], xdsPort: 0 });
    expect(sourceMode(plan.runtime)).toBe('kube');
    expect(parseRuntimeConfig(JSON.stringify(plan.runtime))).toEqual({ config: plan.runtime });
    expect(kubeSourceOptions(plan.runtime)).toEqual({ kubeconfig: '/project/x/kc.yaml', context: 'prod', namespaces: ['shop', 'pay'] });
  });

  it('--context alone selects the cluster mode (kubeconfig from $KUBECONFIG or ~/.kube/config)', async () => {
    const plan = await planServe(['--context', 'dev'], '/w');
    expect(plan.runtime).toEqual({ context: 'dev', xdsPort: 15010 });
    expect(sourceMode(plan.runtime)).toBe('kube');
    expect(kubeSourceOptions(plan.runtime)).toEqual({ context: 'dev' });
  });

  it('--in-cluster with --namespace watches those namespaces with the service account', async () => {
    const plan = await planServe(['--in-cluster', '-n', 'a'], '/w');
    expect(kubeSourceOptions(plan.runtime)).toEqual({ inCluster: true, namespaces: ['a'] });
  });

  it('rejects contradictory flags with a usage error', async () => {
    await expect(planServe(['--in-cluster', '--context', 'c'], '/w')).rejects.toBeInstanceOf(UsageError);
    await expect(planServe(['--kubeconfig', 'k', '--config', 'a.yaml'], '/w')).rejects.toThrow(/either --config/);
    await expect(planServe(['--config', 'a.yaml', '-n', 'a', '-n', 'b'], '/w')).rejects.toThrow(/repeatable only with a cluster/);
  });

  it('keeps a single --namespace with files as the default namespace of the files (unchanged behaviour)', async () => {
    const plan = await planServe(['--config', 'a.yaml', '-n', 'team'], '/w');
    expect(plan.runtime).toEqual({ config: ['/w/a.yaml'], namespace: 'team', xdsPort: 15010 });
    expect(kubeSourceOptions(plan.runtime)).toEqual({});
  });

  it('MESHSCOPE_CONFIG rejects an empty namespace list entry', () => {
    expect(parseRuntimeConfig('{"namespaces":[""]}').error).toMatch(/namespaces/);
  });
});
