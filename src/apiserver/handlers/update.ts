// PUT of an object or its status: the body as an object of the served kind, RBAC's escalation
// check, then the store's update with the request's admission.
import type { KindVersion } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import type { Store } from '../../registry/store.js';
import { fieldManagerOf } from '../apply.js';
import { encodeObject } from '../encode.js';
import { admissionOf, type RequestContext } from '../request/context.js';
import { dryRunOf } from '../request/options.js';
import { prepareServed } from '../request/conversion.js';
import { readObject } from '../request/read-object.js';
import { reply, tableOptions } from '../request/reply.js';

export async function handleUpdate(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  // PUT and PATCH only exist on objects, not on collections.
  if (ctx.info.name === '') throw apiError.methodNotAllowed();
  const dryRun = dryRunOf(ctx.query, 'update');
  const obj = await readObject(ctx, kv);
  await ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, obj);
  const subresource = ctx.info.subresource === 'status' ? 'status' : '';
  const result = await store.update(namespace, ctx.info.name, obj, { dryRun, subresource, fieldManager: fieldManagerOf(ctx, kv, subresource), admission: admissionOf(ctx, store, dryRun), warnings: ctx.warnings });
  await prepareServed(kv, [result.object]);
  return reply(ctx, 200, encodeObject(result.object, kv, ctx.format, tableOptions(ctx)));
}
