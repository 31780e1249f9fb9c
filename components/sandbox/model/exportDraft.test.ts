import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { appendDoc, kubectlCommand, liveObjectYaml } from './exportDraft';

describe('kubectlCommand', () => {
  it('a quoted here-document, so the shell leaves $VARS and backticks alone', () => {
    const cmd = kubectlCommand('a: $HOME\n');
    expect(cmd).toBe("kubectl apply -f - <<'EOF'\na: $HOME\nEOF\n");
  });
  it('picks a delimiter the YAML does not contain on a line of its own', () => {
    expect(kubectlCommand('a: |\n  EOF\n').startsWith("kubectl apply -f - <<'EOF'\n")).toBe(true); // indented: not a terminator
    const cmd = kubectlCommand('# a line that is only the delimiter:\nEOF\n');
    expect(cmd.startsWith("kubectl apply -f - <<'EOF_0'\n")).toBe(true);
    expect(cmd.endsWith('\nEOF_0\n')).toBe(true);
  });
});

describe('liveObjectYaml / appendDoc', () => {
  it('drops server-set metadata, keeps name, namespace, labels and the spec', () => {
    const y = liveObjectYaml({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: {
        name: 'reviews',
        namespace: 'default',
        creationTimestamp: '2024-01-01T00:00:00Z',
        resourceVersion: '7',
        labels: { a: 'b' },
      },
      spec: { hosts: ['reviews'] },
    });
    expect(parse(y)).toEqual({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'reviews', namespace: 'default', labels: { a: 'b' } },
      spec: { hosts: ['reviews'] },
    });
  });
  it('appends as a new document', () => {
    expect(appendDoc('', 'a: 1\n')).toBe('a: 1\n');
    expect(parseAllDocuments(appendDoc('a: 1', 'b: 2\n')).length).toBe(2);
  });
});
