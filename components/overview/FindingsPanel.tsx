// `meshscope analyze` findings on the overview: Istio's code, level, the object and YAML path, the message.
// Schema findings (IST0106 / IST0133) are left out: the input errors table below lists the same problems.
import { FINDING_COLUMNS, ProblemsTable } from '@/components/common/ProblemsTable';
import type { Finding } from '@/server/api/contract';
import { fromFinding } from '@/server/model/problem';

const SCHEMA_CODES = new Set(['IST0106', 'IST0133']);

export const panelFindings = (findings: readonly Finding[]): Finding[] => findings.filter((f) => !SCHEMA_CODES.has(f.code));

export function FindingsPanel({ findings }: { findings: readonly Finding[] }) {
  return (
    <ProblemsTable
      problems={panelFindings(findings).map(fromFinding)}
      caption="Analyzer findings"
      columns={FINDING_COLUMNS}
      testId="findings-table"
      empty={
        <p className="muted" data-testid="findings-empty">
          No analyzer findings.
        </p>
      }
    />
  );
}
