// POST to a collection: the body as an object of the served kind (through the fast path),
// RBAC's escalation check, then the store's create with the request's admission.
import type { KindVersion } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import type { Store } from '../../registry/store.js';
import { fieldManagerOf } from '../apply.js';
import { encodeObject } from '../encode.js';
import { admissionOf, type RequestContext } from '../request/context.js';
import { dryRunOf } from '../request/options.js';
import { prepareServed } from '../request/conversion.js';
import { readNewObject } from '../request/read-object.js';
import { reply, tableOptions } from '../request/reply.js';

export async function handleCreate(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  if (ctx.info.name !== '') throw apiError.methodNotAllowed();
  const dryRun = dryRunOf(ctx.query, 'create');
  const obj = await readNewObject(ctx, kv);
  await ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, obj);
  const created = await store.create(namespace, obj, { dryRun, consumeInput: true, fieldManager: fieldManagerOf(ctx, kv), admission: admissionOf(ctx, store, dryRun), user: ctx.user, warnings: ctx.warnings });
  await prepareServed(kv, [created]);
  return reply(ctx, 201, encodeObject(created, kv, ctx.format, tableOptions(ctx)));
}
