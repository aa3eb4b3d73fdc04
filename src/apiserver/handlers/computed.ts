// GET and LIST of a computed read-only resource (componentstatuses): its objects are made on the
// read, never stored, so there is nothing to watch, write, select by resourceVersion or page.
import type { KindVersion } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import { apiError } from '../../registry/errors.js';
import { encodeComputed } from '../encode.js';
import { namespaceScoped } from '../request/request-info.js';
import { reply, tableOptions } from '../request/reply.js';
import type { RequestContext } from '../request/context.js';

/** The Warning kube-apiserver adds to every request of a deprecated API. */
const DEPRECATED_IN: Readonly<Record<string, string>> = { ComponentStatus: 'v1.19' };

export async function handleComputed(ctx: RequestContext, kv: KindVersion): Promise<void> {
  const { info } = ctx;
  if (info.subresource !== '' || namespaceScoped(info)) throw apiError.unknownResource();
  if (info.verb !== 'get' && info.verb !== 'list') throw apiError.methodNotAllowed();
  const deprecated = DEPRECATED_IN[kv.kind];
  if (deprecated !== undefined) ctx.warnings.push(`${kv.version} ${kv.kind} is deprecated in ${deprecated}+`);
  const statuses = ctx.componentStatuses;
  if (info.verb === 'get') {
    const found = await statuses?.get(info.name);
    // Kubernetes' REST answers an unknown component with a plain error: a 500.
    if (!found) throw new StatusError(500, '', `Component not found: ${info.name}`);
    return reply(ctx, 200, encodeComputed([found], kv, ctx.format, tableOptions(ctx), true));
  }
  // Component statuses carry no labels or fields to select by: a selector matches none of them.
  const selected = (ctx.query.get('labelSelector') ?? '') === '' && (ctx.query.get('fieldSelector') ?? '') === '';
  const items = selected ? ((await statuses?.list()) ?? []) : [];
  return reply(ctx, 200, encodeComputed(items, kv, ctx.format, tableOptions(ctx), false));
}
