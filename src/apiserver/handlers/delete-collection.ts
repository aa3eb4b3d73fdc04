// DELETE of a collection: as Kubernetes, a consistent list (with the request's selectors), each
// listed object deleted with the request's DeleteOptions and its own admission, and that list as
// the answer. An object already gone is skipped.
import type { KindVersion } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import type { Store } from '../../registry/store.js';
import { encodeList } from '../encode.js';
import { prepareServedCached } from '../request/conversion.js';
import { cacheFailure } from '../request/cache-failure.js';
import type { RequestContext } from '../request/context.js';
import { deleteOptions } from '../request/delete-options.js';
import { filterOf } from '../request/filter.js';
import { int64Param, timeoutSecondsOf } from '../request/query-params.js';
import { reply, tableOptions } from '../request/reply.js';

export async function handleDeleteCollection(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  // The request's ListOptions are decoded first (400 for an integer that does not parse), as Kubernetes does.
  timeoutSecondsOf(ctx.query);
  int64Param(ctx.query, 'limit');
  const opts = await deleteOptions(ctx);
  const filter = filterOf(ctx, kv);
  try {
    await ctx.registry.cacher.waitUntilFresh();
  } catch (err) {
    cacheFailure(err);
  }
  const listed = store.cache.list({ prefix: store.prefix(namespace), filter });
  for (const o of listed.items) {
    try {
      await store.delete(o.namespace, o.name, { ...opts, admission: ctx.admission?.hook({ kind: store.kind, subresource: '', namespace: o.namespace, name: o.name, user: ctx.user, dryRun: opts.dryRun }) });
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
  }
  await prepareServedCached(kv, listed.items);
  return reply(ctx, 200, encodeList({ items: listed.items, resourceVersion: String(listed.revision) }, kv, ctx.format, ctx.registry.fastPath.protobufItem, tableOptions(ctx)));
}
