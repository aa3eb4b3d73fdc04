// DeleteOptions of a delete or deletecollection: from the query and/or a body (kubectl sends a
// body), validated as Kubernetes does.
import { DeleteOptions as DeleteOptionsType } from '../../api/meta/v1.js';
import type { KubeObject } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import { validateDeleteOptions } from '../../registry/store.js';
import { decodeBody } from '../decode.js';
import { readBody } from '../http/body.js';
import type { RequestContext } from './context.js';
import { dryRunOf } from './options.js';

export async function deleteOptions(ctx: RequestContext) {
  const bytes = await readBody(ctx.req);
  let body: KubeObject = {};
  if (bytes.byteLength > 0) {
    body = decodeBody(bytes, ctx.req.headers['content-type'], DeleteOptionsType, { fieldValidation: 'Ignore' }).object;
  }
  const q = ctx.query;
  const num = (name: string, v: unknown): number | undefined => {
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'number' ? v : Number(v);
    if (!Number.isInteger(n)) throw apiError.badRequest(`${name}: invalid integer ${JSON.stringify(v)}`);
    return n;
  };
  const gracePeriodSeconds = num('gracePeriodSeconds', q.get('gracePeriodSeconds') ?? body.gracePeriodSeconds);
  const propagationPolicy = (q.get('propagationPolicy') ?? body.propagationPolicy) as string | undefined;
  const orphanRaw = q.get('orphanDependents') ?? body.orphanDependents;
  const orphanDependents = orphanRaw === undefined || orphanRaw === null ? undefined : orphanRaw === true || orphanRaw === 'true';
  const errors = validateDeleteOptions(orphanDependents, propagationPolicy ?? undefined);
  if (errors.length > 0) throw apiError.invalid('DeleteOptions', 'meta.k8s.io', '', errors);
  const pre = (body.preconditions ?? {}) as { uid?: string; resourceVersion?: string };
  const dryRun = dryRunOf(q, 'delete') || (Array.isArray(body.dryRun) && body.dryRun.includes('All'));
  let policy = propagationPolicy as 'Orphan' | 'Background' | 'Foreground' | undefined;
  if (orphanDependents === true) policy = 'Orphan';
  else if (orphanDependents === false) policy = 'Background';
  return { gracePeriodSeconds, propagationPolicy: policy, preconditions: { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined }, dryRun };
}
