// The EnvoyFilter tab of a mesh proxy (issue #22): every config patch of every EnvoyFilter that could concern the
// proxy (root namespace and its own), in istiod's order — applied or not, where it changed the config, or why not.
import type { EnvoyFilterPatchReport } from '@/server/api/contract';

export function EnvoyFilterTab({ patches }: { patches: readonly EnvoyFilterPatchReport[] }) {
  if (patches.length === 0) {
    return (
      <section className="panel" data-testid="envoyfilter-tab">
        <p className="muted">No EnvoyFilter in the root namespace or this proxy's namespace.</p>
      </section>
    );
  }
  const applied = patches.filter((p) => p.applied).length;
  return (
    <section className="panel" data-testid="envoyfilter-tab">
      <p className="small">
        {applied} of {patches.length} patches changed this proxy's config.
      </p>
      <table className="table">
        <thead>
          <tr>
            <th>EnvoyFilter</th>
            <th>patch</th>
            <th>applyTo</th>
            <th>operation</th>
            <th>context</th>
            <th>applied</th>
            <th>where / why not</th>
          </tr>
        </thead>
        <tbody>
          {patches.map((p) => (
            <tr key={`${p.namespace}/${p.name}/${p.patch}`} data-testid="envoyfilter-patch" data-applied={p.applied}>
              <td className="mono">
                {p.namespace}/{p.name}
              </td>
              <td className="mono">configPatches[{p.patch}]</td>
              <td className="mono">{p.applyTo}</td>
              <td className="mono">{p.operation}</td>
              <td className="mono">{p.context}</td>
              <td>{p.applied ? <span className="badge">applied</span> : <span className="badge muted">not applied</span>}</td>
              <td className="small">
                {p.applied ? (
                  <ul>
                    {p.targets.map((t) => (
                      <li key={t} className="mono">
                        {t}
                      </li>
                    ))}
                  </ul>
                ) : (
                  p.reason
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
