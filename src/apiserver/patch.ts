// PATCH bodies: JSON patch, JSON merge patch and strategic merge patch applied to the object in
// the URL's version, then decoded back as an object of that kind (with field validation, so an
// unknown field in a patch is reported as in Kubernetes). Server-side apply is a separate feature
// and answers with a clear 415 until it exists.
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { decodeParsed } from '../machinery/codec/json.js';
import { parseJson } from '../machinery/codec/json.js';
import { applyPatch as apply, patchTypeFromContentType } from '../machinery/patch/index.js';
import { StatusError } from '../machinery/status.js';
import { fieldValidationOf, type RequestContext } from './resources.js';

export interface Patched {
  object: KubeObject;
  warnings: string[];
}

export function applyPatch(ctx: RequestContext, kv: KindVersion, current: KubeObject, body: Uint8Array): Patched {
  const type = patchTypeFromContentType(ctx.req.headers['content-type'], { strategic: true, apply: false });
  if (type === 'apply') throw StatusError.unsupportedMediaType('server-side apply is not supported by this server yet');
  const patch = parseJson(body);
  const result = apply(type, current, patch, kv.type);
  const decoded = decodeParsed<KubeObject>(result, null, kv.type, fieldValidationOf(ctx.query, ctx.info.verb), { group: kv.group, version: kv.version, kind: kv.kind }, body);
  return { object: decoded.object, warnings: decoded.warnings };
}
