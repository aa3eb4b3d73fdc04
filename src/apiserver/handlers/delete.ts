// DELETE of one object: the store's delete with the request's DeleteOptions and admission. The
// answer is the object while it still exists (finalizers, graceful deletion; always for a kind whose
// module returns deleted objects, as Kubernetes' pods), else a Success Status naming it.
import { nameOf, uidOf } from '../../api/meta/object.js';
import { Status } from '../../api/meta/v1.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import { moduleOf } from '../../registry/kinds/index.js';
import type { Store } from '../../registry/store.js';
import { encodeObject, encodeOther } from '../encode.js';
import { admissionOf, type RequestContext } from '../request/context.js';
import { deleteOptions } from '../request/delete-options.js';
import { prepareServed } from '../request/conversion.js';
import { reply, tableOptions } from '../request/reply.js';

export async function handleDelete(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  if (ctx.info.subresource !== '') throw apiError.methodNotAllowed();
  const refusal = moduleOf(kv).refuseDelete?.(ctx.info.name);
  if (refusal !== undefined) throw apiError.forbidden(kv, ctx.info.name, refusal);
  const opts = await deleteOptions(ctx);
  const result = await store.delete(namespace, ctx.info.name, { ...opts, admission: admissionOf(ctx, store, opts.dryRun) });
  if (!result.deleted || moduleOf(kv).returnsDeletedObject) {
    // Kubernetes answers with the object while it still exists (and always for pods).
    await prepareServed(kv, [result.object]);
    return reply(ctx, 200, encodeObject(result.object, kv, ctx.format, tableOptions(ctx)));
  }
  const status: KubeObject = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: nameOf(result.object), group: kv.group || undefined, kind: kv.resource, uid: uidOf(result.object) },
  };
  return reply(ctx, 200, encodeOther(status, Status, ctx.format));
}
