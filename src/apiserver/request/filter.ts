// The label and field selectors of a list, watch or deletecollection, as one filter on the watch
// cache's objects (undefined: everything).
import type { KindVersion } from '../../api/schema/kind.js';
import type { ObjectFilter } from '../../storage/cacher/types.js';
import { compileSelectors } from '../selectors.js';
import type { RequestContext } from './context.js';

export function filterOf(ctx: RequestContext, kv: KindVersion): ObjectFilter | undefined {
  return compileSelectors(ctx.query.get('labelSelector') ?? '', ctx.query.get('fieldSelector') ?? '', kv);
}
