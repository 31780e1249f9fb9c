// Configured vs observed share per destination, as two horizontal bars each (no chart library needed).
import type { ServiceTraffic } from '@/components/data/demo';

export function TrafficBars({
  destinations,
  caption,
  testId,
}: {
  destinations: ServiceTraffic['destinations'];
  caption: string;
  testId: string;
}) {
  return (
    <table className="table demo-bars" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th>subset</th>
          <th>share</th>
          <th className="num">configured</th>
          <th className="num">observed</th>
          <th className="num">calls</th>
        </tr>
      </thead>
      <tbody>
        {destinations.map((d) => (
          <tr key={d.cluster} data-subset={d.subset} data-observed={d.observedPercent} data-configured={d.configuredPercent}>
            <td title={d.cluster}>{d.subset || '(all)'}</td>
            <td className="demo-bar-cell">
              <div className="demo-bar configured" style={{ width: `${d.configuredPercent}%` }} />
              <div className="demo-bar observed" style={{ width: `${d.observedPercent}%` }} />
            </td>
            <td className="num">{d.configuredPercent}%</td>
            <td className="num">{d.observedPercent}%</td>
            <td className="num">{d.requests}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
