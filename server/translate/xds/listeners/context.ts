// Shared state of one buildSidecarListeners call: the view and the error sink. No module state.
import type { LoadError } from '../../../model/mesh';
import type { ProxyView } from '../../view/types';

export { configError } from '../../configError';

export interface BuildCtx {
  view: ProxyView;
  errors: LoadError[];
}
