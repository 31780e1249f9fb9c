import type { MeshGraphCounts } from '@/server/api/contract';

const ITEMS: Array<[keyof MeshGraphCounts, string]> = [
  ['namespaces', 'namespaces'],
  ['services', 'services'],
  ['workloads', 'workloads'],
  ['proxies', 'proxies'],
  ['pods', 'pods without proxy'],
  ['virtualServices', 'VirtualServices'],
  ['destinationRules', 'DestinationRules'],
  ['gateways', 'Gateways'],
  ['serviceEntries', 'ServiceEntries'],
  ['routeEdges', 'routed edges'],
];

export function CountsBar({ counts }: { counts: MeshGraphCounts }) {
  return (
    <ul className="counts" data-testid="counts">
      {ITEMS.map(([k, label]) => (
        <li key={k} data-count={k}>
          <strong>{counts[k]}</strong>
          {label}
        </li>
      ))}
    </ul>
  );
}
