// PATCH bodies: JSON patch, JSON merge patch and strategic merge patch applied to the object in
// the URL's version, then decoded back as an object of that kind (with field validation, so an
// unknown field in a patch is reported as in Kubernetes). Server-side apply is apply.ts's.
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { decodeParsed } from '../machinery/codec/json.js';
import { parseJson } from '../machinery/codec/json.js';
import { applyPatch as apply, patchTypeFromContentType, type PatchType } from '../machinery/patch/index.js';
import { fieldValidationOf, type RequestContext } from './resources.js';

export interface Patched {
  object: KubeObject;
  warnings: string[];
}

export function applyPatch(ctx: RequestContext, kv: KindVersion, current: KubeObject, body: Uint8Array): Patched {
  const type = patchTypeFromContentType(ctx.req.headers['content-type'], { strategic: true, apply: false }) as Exclude<PatchType, 'apply'>;
  const patch = parseJson(body);
  const result = apply(type, current, patch, kv.type);
  const decoded = decodeParsed<KubeObject>(result, null, kv.type, fieldValidationOf(ctx.query, ctx.info.verb), { group: kv.group, version: kv.version, kind: kv.kind }, body);
  return { object: decoded.object, warnings: decoded.warnings };
}
