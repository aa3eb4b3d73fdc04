// GET of one object: resourceVersion unset is a consistent read (the watch cache once it has seen
// the newest revision on disk, else storage); resourceVersion=N reads the watch cache once it is
// at least at N ("0": whatever it has). Cached bytes are served as they are.
import type { KindVersion } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import type { Store } from '../../registry/store.js';
import type { CachedObject } from '../../storage/cacher/types.js';
import { encodeCachedObject, encodeObject } from '../encode.js';
import { cacheFailure } from '../request/cache-failure.js';
import { prepareServed, prepareServedCached } from '../request/conversion.js';
import type { RequestContext } from '../request/context.js';
import { refuseExport, requestTimeoutMs, withinDeadline } from '../request/query-params.js';
import { reply, tableOptions } from '../request/reply.js';

/**
 * The object from the watch cache once the cache has seen the newest revision on disk (404 when
 * it is not there), or undefined when the cache cannot say (not ready, or behind for too long).
 */
async function freshCachedObject(ctx: RequestContext, store: Store, namespace: string, name: string): Promise<CachedObject | undefined> {
  try {
    await ctx.registry.cacher.waitUntilFresh();
  } catch {
    return undefined;
  }
  return store.getCached(namespace, name);
}

export async function handleGet(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  refuseExport(ctx.query);
  const rv = ctx.query.get('resourceVersion') ?? '';
  if (rv !== '' && !/^\d+$/.test(rv)) {
    throw new StatusError(500, '', `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
  }
  // Bounded by the request's `timeout` (504 past it), as every request that is not long-running.
  return reply(ctx, 200, await withinDeadline(requestTimeoutMs(ctx.query), readObject(ctx, kv, store, namespace, rv)));
}

async function readObject(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string, rv: string) {
  if (rv === '') {
    // A consistent read, as a consistent list: from the watch cache once it has seen the newest
    // revision on disk (its bytes served as they are, not decoded and encoded again); from
    // storage when the cache cannot answer (not ready, or not catching up in time).
    const cached = await freshCachedObject(ctx, store, namespace, ctx.info.name);
    if (cached !== undefined) {
      await prepareServedCached(kv, [cached]);
      return encodeCachedObject(cached, kv, ctx.format, tableOptions(ctx));
    }
    const obj = await store.get(namespace, ctx.info.name);
    await prepareServed(kv, [obj]);
    return encodeObject(obj, kv, ctx.format, tableOptions(ctx));
  }
  // resourceVersion=N: from the watch cache, once it is at least at N ("0": whatever it has).
  try {
    if (Number(rv) > 0) await ctx.registry.cacher.waitForRevision(Number(rv));
  } catch (err) {
    cacheFailure(err);
  }
  const cached = store.getCached(namespace, ctx.info.name);
  await prepareServedCached(kv, [cached]);
  return encodeCachedObject(cached, kv, ctx.format, tableOptions(ctx));
}
