// `meshscope analyze --config PATH… [-o json|table]`: analyzers are a later issue.
import type { Io } from './common';

export async function analyzeCommand(_argv: readonly string[], io: Io): Promise<number> {
  io.stderr.write('meshscope analyze: not implemented yet\n');
  return 2;
}
