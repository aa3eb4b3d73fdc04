// LIST with Kubernetes' semantics: label and field selectors; resourceVersion unset (a consistent
// read: the watch cache once it has caught up with storage), "0" (whatever the cache has),
// NotOlderThan / Exact; `limit` + `continue` pages that all share one snapshot revision (pages
// after the first are read from storage at that revision); 410 Expired for a compacted or
// expired token, with the inconsistent-continue token Kubernetes offers.
import type { KindVersion } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import { cachedFromObject, decodeStored } from '../../registry/materialize.js';
import { apiError } from '../../registry/errors.js';
import type { Store } from '../../registry/store.js';
import { isCacheError } from '../../storage/cacher/index.js';
import type { CachedObject, ObjectFilter } from '../../storage/cacher/types.js';
import { isStorageError } from '../../storage/types.js';
import { encodeListStreamed } from '../encode.js';
import { prepareServedCached } from '../request/conversion.js';
import { writeBytes, writeStreamed } from '../http/respond.js';
import { ContinueTokenError, decodeContinue, encodeContinue } from '../list/continue-token.js';
import { cacheFailure } from '../request/cache-failure.js';
import type { RequestContext } from '../request/context.js';
import { filterOf } from '../request/filter.js';
import { int64Param, requestTimeoutMs, timeoutSecondsOf, withinDeadline } from '../request/query-params.js';
import { tableOptions } from '../request/reply.js';

/** The default lifetime of a continue token (the seed: five minutes); a flag of the API server. */
export const DEFAULT_CONTINUE_TTL_MS = 5 * 60_000;

const EXPIRED_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** `limit`: ListOptions' int64; zero or negative asks for no paging (Kubernetes pages only when limit > 0). */
function parseLimit(query: URLSearchParams): number | undefined {
  const n = int64Param(query, 'limit');
  return n === undefined || n <= 0n ? undefined : Number(n);
}

function parseResourceVersion(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d+$/.test(value)) {
    throw new StatusError(500, '', `resourceVersion: Invalid value: ${JSON.stringify(value)}: strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`);
  }
  return Number(value);
}

/** 410 Expired for a continue token whose snapshot is gone, offering an inconsistent continuation. */
class ExpiredContinue extends StatusError {
  constructor(private readonly token: string) {
    super(410, 'Expired', EXPIRED_CONTINUE);
  }

  override toStatus() {
    const status = super.toStatus();
    status.metadata = { continue: this.token };
    return status;
  }
}

/**
 * A page read from storage at `revision` (undefined: the newest), filtered, after `startAfter`.
 * With a selector it keeps reading until the page is full or the range ends, as Kubernetes does;
 * `lastKey` is the last key scanned, where the next page continues.
 */
async function storagePage(store: Store, prefix: string, revision: number | undefined, startAfter: string | undefined, limit: number, filter: ObjectFilter | undefined) {
  const items: CachedObject[] = [];
  let after = startAfter;
  let rev = revision;
  let lastKey: string | undefined;
  let more = false;
  const chunk = Math.min(limit, 5000);
  outer: for (;;) {
    const page = await store.listStorage(prefix, { revision: rev, limit: chunk, startAfter: after });
    rev = page.revision;
    for (let i = 0; i < page.items.length; i++) {
      const kv = page.items[i]!;
      lastKey = kv.key;
      const cached = cachedFromObject(kv.key, decodeStored(kv.value, kv.modRevision), kv.modRevision, store.fieldsOf);
      if (!filter || filter(cached)) items.push(cached);
      if (items.length === limit) {
        more = i < page.items.length - 1 || page.more;
        break outer;
      }
    }
    if (!page.more) break;
    after = lastKey;
  }
  return { items, revision: rev ?? 0, more, lastKey };
}

/**
 * A page at the snapshot `revision` from the watch cache (its window of changes undone back to
 * `revision`), when the window still reaches back there and storage has not compacted it (a
 * compacted revision keeps answering 410 from storage); undefined → read storage.
 */
async function cachedPage(store: Store, prefix: string, revision: number, startAfter: string | undefined, limit: number, filter: ObjectFilter | undefined) {
  if (revision < (await store.compactedRevision())) return undefined;
  let page;
  try {
    page = store.cache.listAt(revision, { prefix, filter, limit, startAfter });
  } catch (err) {
    if (isCacheError(err)) return undefined;
    throw err;
  }
  if (page === undefined) return undefined;
  return { items: page.items, revision, more: page.more, lastKey: page.lastKey };
}

interface ListPage {
  items: readonly CachedObject[];
  revision: number;
  continueToken?: string;
  remaining?: number;
}

export async function handleList(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  const q = ctx.query;
  // Decoded (and refused when malformed) as every ListOptions; a plain list has no other use for
  // it: kube-apiserver bounds non-watch requests by `timeout` (the request deadline) instead.
  timeoutSecondsOf(q);
  const deadlineMs = requestTimeoutMs(q);
  const filter = filterOf(ctx, kv);
  const limit = parseLimit(q);
  const rv = parseResourceVersion(q.get('resourceVersion'));
  const match = q.get('resourceVersionMatch') ?? '';
  if (match !== '' && match !== 'NotOlderThan' && match !== 'Exact') {
    throw apiError.badRequest(`resourceVersionMatch: Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan"`);
  }
  if (match !== '' && rv === undefined) {
    throw apiError.invalid('ListOptions', 'meta.k8s.io', '', [
      { type: 'FieldValueForbidden', field: 'resourceVersionMatch', badValue: { kind: 'none' }, detail: 'resourceVersionMatch is forbidden unless resourceVersion is provided' },
    ]);
  }
  const { items, revision, continueToken, remaining } = await withinDeadline(deadlineMs, readPage(ctx, store, namespace, { limit, rv, match, filter }));
  await prepareServedCached(kv, items);
  const body = encodeListStreamed({ items, resourceVersion: String(revision), continue: continueToken, remainingItemCount: remaining }, kv, ctx.format, ctx.registry.fastPath.protobufItem, tableOptions(ctx));
  if ('chunks' in body) await writeStreamed(ctx.res, 200, body, { warnings: ctx.warnings });
  else writeBytes(ctx.res, 200, body.contentType, body.body, { warnings: ctx.warnings });
}

/** The page a list answers: from a continue token, an Exact revision, or the watch cache. */
async function readPage(
  ctx: RequestContext,
  store: Store,
  namespace: string,
  { limit, rv, match, filter }: { limit: number | undefined; rv: number | undefined; match: string; filter: ObjectFilter | undefined },
): Promise<ListPage> {
  const prefix = store.prefix(namespace);
  const token = ctx.query.get('continue') ?? '';

  let items: readonly CachedObject[];
  let revision: number;
  let continueToken: string | undefined;
  let remaining: number | undefined;

  if (token !== '') {
    let pos;
    try {
      pos = decodeContinue(token, prefix);
    } catch (err) {
      if (err instanceof ContinueTokenError) throw apiError.badRequest(err.message);
      throw err;
    }
    const at = pos.revision === -1 ? undefined : pos.revision;
    try {
      const page =
        (at === undefined ? undefined : await cachedPage(store, prefix, at, pos.startAfter, limit ?? Number.MAX_SAFE_INTEGER, filter)) ??
        (await storagePage(store, prefix, at, pos.startAfter, limit ?? Number.MAX_SAFE_INTEGER, filter));
      items = page.items;
      revision = page.revision;
      if (page.more && page.lastKey) continueToken = encodeContinue(prefix, page.lastKey, pos.revision === -1 ? -1 : revision);
    } catch (err) {
      if (isStorageError(err, 'Compacted')) {
        throw new ExpiredContinue(encodeContinue(prefix, pos.startAfter, -1));
      }
      throw store.storageFailure(err, '');
    }
  } else if (match === 'Exact' && rv !== undefined && rv !== 0) {
    try {
      const page =
        (await cachedPage(store, prefix, rv, undefined, limit ?? Number.MAX_SAFE_INTEGER, filter)) ??
        (await storagePage(store, prefix, rv, undefined, limit ?? Number.MAX_SAFE_INTEGER, filter));
      items = page.items;
      revision = page.revision;
      if (page.more && page.lastKey) continueToken = encodeContinue(prefix, page.lastKey, revision);
    } catch (err) {
      if (isStorageError(err, 'Compacted')) throw apiError.expired('The resourceVersion for the provided list is too old.');
      if (isStorageError(err, 'FutureRevision')) throw apiError.tooLargeResourceVersion(`Too large resource version: ${rv}, current: ${await store.cache.revisionNow()}`);
      throw store.storageFailure(err, '');
    }
  } else {
    // From the watch cache: consistent (wait until it has seen the newest revision), or at least `rv`.
    try {
      if (rv === undefined) await ctx.registry.cacher.waitUntilFresh();
      else if (rv > 0) await ctx.registry.cacher.waitForRevision(rv);
    } catch (err) {
      cacheFailure(err);
    }
    let result;
    try {
      result = store.cache.list({ prefix, filter, limit });
    } catch (err) {
      cacheFailure(err);
    }
    items = result.items;
    revision = result.revision;
    if (limit !== undefined && result.more && items.length > 0) {
      continueToken = encodeContinue(prefix, items[items.length - 1]!.key, revision);
      remaining = result.remaining;
    }
  }
  return { items, revision, continueToken, remaining };
}
