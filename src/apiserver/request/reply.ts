// Answering a resource request: the encoded body with the request's warnings, and the Table
// options the request asked for (includeObject) at the request's time.
import type { Body, TableOptions } from '../encode.js';
import { writeBytes } from '../http/respond.js';
import type { RequestContext } from './context.js';

export function reply(ctx: RequestContext, code: number, body: Body): void {
  writeBytes(ctx.res, code, body.contentType, body.body, { warnings: ctx.warnings });
}

export function tableOptions(ctx: RequestContext): TableOptions {
  const include = ctx.query.get('includeObject');
  return { includeObject: include === 'None' || include === 'Object' ? include : 'Metadata', now: ctx.now };
}
