// PATCH of an object or its status. Apply patches are server-side apply (apply.ts). JSON patch,
// JSON merge patch and strategic merge patch are applied to the object in the URL's version, then
// decoded back as an object of that kind (with field validation, so an unknown field in a patch
// is reported as in Kubernetes), defaulted and converted to the storage version, inside the
// store's guaranteed update (so a conflict retries the patch on the newer object).
import { storageVersionOf } from '../../api/kinds.js';
import { nameOf, resourceVersionOf } from '../../api/meta/object.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { decodeParsed, parseJson, stringifyJson } from '../../machinery/codec/json.js';
import type { StatusError } from '../../machinery/status.js';
import { applyPatch as apply, patchTypeFromContentType, type PatchType } from '../../machinery/patch/index.js';
import { apiError } from '../../registry/errors.js';
import { moduleOf } from '../../registry/kinds/index.js';
import { str } from '../../registry/meta.js';
import type { Store } from '../../registry/store.js';
import { applyObject, fieldManagerOf, isApply } from '../apply.js';
import { encodeObject } from '../encode.js';
import { readBody } from '../http/body.js';
import { admissionOf, type RequestContext } from '../request/context.js';
import { dryRunOf, fieldValidationOf, validatePatchOptions } from '../request/options.js';
import { reply, tableOptions } from '../request/reply.js';
import { pruneUnknownFields } from '../request/prune-unknown.js';
import { hubOf, prepareServed } from '../request/conversion.js';

interface Patched {
  object: KubeObject;
  warnings: string[];
}

function applyPatch(ctx: RequestContext, kv: KindVersion, current: KubeObject, body: Uint8Array): Patched {
  const type = patchTypeFromContentType(ctx.req.headers['content-type'], { strategic: true, apply: false }) as Exclude<PatchType, 'apply'>;
  const patch = parseJson(body);
  const result = apply(type, current, patch, kv.type);
  const decoded = decodeParsed<KubeObject>(result, null, kv.type, fieldValidationOf(ctx.query, ctx.info.verb), { group: kv.group, version: kv.version, kind: kv.kind }, body);
  const kind = str(decoded.object.kind);
  if (kind !== '' && kind !== kv.kind) throw otherKindPatched(kv, decoded.object, result);
  // A patch that removed apiVersion and kind still decodes into the URL's kind, as Kubernetes
  // decodes it into a typed object.
  if (kind === '') Object.assign(decoded.object, { apiVersion: kv.group === '' ? kv.version : `${kv.group}/${kv.version}`, kind: kv.kind });
  checkPatchedName(decoded.object, ctx.info.name);
  return { object: decoded.object, warnings: decoded.warnings };
}

/**
 * The patcher's name check (checkName of kube-apiserver's patch handler): a patched object named
 * otherwise than the URL is refused — also one whose name a patch removed, as a top-level
 * strategic `{"$patch":"delete"}` (the whole object emptied) or `{"$patch":"replace"}` does.
 */
export function checkPatchedName(patched: KubeObject, name: string): void {
  const named = nameOf(patched);
  if (named !== name) throw apiError.badRequest(`the name of the object (${named}) does not match the name on the URL (${name})`);
}

/**
 * A patch that turned the object into another kind: kube-apiserver decodes the patched document
 * into the URL's kind, the scheme has no conversion between the two, and the patcher reports that
 * as an invalid patch (422), the patched document as the value.
 */
function otherKindPatched(kv: KindVersion, patched: KubeObject, document: unknown): StatusError {
  const apiVersion = str(patched.apiVersion);
  const sourcePackage = apiVersion.slice(apiVersion.lastIndexOf('/') + 1);
  const targetPackage = kv.group === '' ? 'core' : kv.group.split('.')[0]!;
  return apiError.invalid('', '', '', [
    {
      type: 'FieldValueInvalid',
      field: 'patch',
      badValue: { kind: 'plain', value: stringifyJson(document) },
      detail: `converting (${sourcePackage}.${str(patched.kind)}) to (${targetPackage}.${kv.kind}): unknown conversion`,
    },
  ]);
}

export async function handlePatch(ctx: RequestContext, kv: KindVersion, store: Store, namespace: string): Promise<void> {
  const { info } = ctx;
  if (info.name === '') throw apiError.methodNotAllowed();
  const dryRun = dryRunOf(ctx.query, 'patch');
  fieldValidationOf(ctx.query, 'patch');
  validatePatchOptions(ctx);
  if (isApply(ctx)) {
    const applied = await applyObject(ctx, kv, store, namespace, info.subresource === 'status' ? 'status' : '');
    await prepareServed(kv, [applied.object]);
    return reply(ctx, applied.created ? 201 : 200, encodeObject(applied.object, kv, ctx.format, tableOptions(ctx)));
  }
  const bytes = await readBody(ctx.req);
  const hub = storageVersionOf(kv);
  const grantsPermissions = moduleOf(kv).grantsPermissions === true;
  const result = await store.guaranteedUpdate(
    namespace,
    info.name,
    async (current) => {
      await prepareServed(kv, [current]);
      const served = kv.fromHub ? kv.fromHub(current) : current;
      const patched = applyPatch(ctx, kv, served, bytes);
      ctx.warnings.length = 0;
      ctx.warnings.push(...patched.warnings);
      const obj = patched.object;
      // A patch may pin the version it was made against: then a changed object is a conflict.
      const pinned = resourceVersionOf(obj);
      if (pinned !== '' && pinned !== resourceVersionOf(served)) throw apiError.modified(store.kind, info.name);
      pruneUnknownFields(kv, obj, fieldValidationOf(ctx.query, ctx.info.verb), ctx.warnings);
      kv.defaults?.(obj);
      const next = await hubOf(kv, obj);
      if (hub.kind !== str(next.kind)) throw apiError.internal('conversion produced another kind');
      // Objects that grant permissions: no one grants what they do not hold (as on create and update).
      if (grantsPermissions) await ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, next);
      return next;
    },
    {
      dryRun,
      subresource: info.subresource === 'status' ? 'status' : '',
      expectResourceVersion: undefined,
      fieldManager: fieldManagerOf(ctx, kv, info.subresource === 'status' ? 'status' : ''),
      admission: admissionOf(ctx, store, dryRun),
      warnings: ctx.warnings,
    },
  );
  await prepareServed(kv, [result.object]);
  return reply(ctx, 200, encodeObject(result.object, kv, ctx.format, tableOptions(ctx)));
}
