// Request bodies as objects of the served kind: decoded in the URL's version (with the request's
// field validation), their kind checked, defaulted, and converted to the storage version. A
// create goes through the create-body memo, so the next create from the same template skips the
// decode.
import { apiVersionOf } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import { str } from '../../registry/meta.js';
import { CreateBodies, cutBody } from '../create-bodies.js';
import { decodeBody, isJsonBody, type DecodedBody } from '../decode.js';
import { readBody } from '../http/body.js';
import type { RequestContext } from './context.js';
import { fieldValidationOf, type FieldValidation } from './options.js';

/** The Go package of a group's internal types, as conversion errors name them (core.ConfigMap, apps.Deployment). */
function internalPackage(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

/** A decoded request body as an object of the served kind: its kind checked, defaulted, converted to the storage version. */
function objectFromBody(kv: KindVersion, body: DecodedBody): KubeObject {
  const obj = body.object;
  const apiVersion = str(obj.apiVersion);
  const kind = str(obj.kind);
  if ((apiVersion !== '' && apiVersion !== apiVersionOf(kv)) || (kind !== '' && kind !== kv.kind)) {
    throw apiError.badRequest(
      `${kind || kv.kind} in version ${JSON.stringify(apiVersion || apiVersionOf(kv))} cannot be handled as a ${kv.kind}: converting (${(apiVersion || kv.version).split('/').pop()}.${kind || kv.kind}) to (${internalPackage(kv.group)}.${kv.kind}): unknown conversion`,
    );
  }
  obj.apiVersion = apiVersionOf(kv);
  obj.kind = kv.kind;
  kv.defaults?.(obj);
  return kv.toHub ? kv.toHub(obj) : obj;
}

function decodeBytes(ctx: RequestContext, kv: KindVersion, bytes: Buffer, fieldValidation: FieldValidation): DecodedBody {
  return decodeBody(bytes, ctx.req.headers['content-type'], kv.type, { fieldValidation, defaultGVK: { group: kv.group, version: kv.version, kind: kv.kind } });
}

/** The request body of an update as the object to store. */
export async function readObject(ctx: RequestContext, kv: KindVersion): Promise<KubeObject> {
  const decoded = decodeBytes(ctx, kv, await readBody(ctx.req), fieldValidationOf(ctx.query, ctx.info.verb));
  ctx.warnings.push(...decoded.warnings);
  return objectFromBody(kv, decoded);
}

/** Bodies of creates decoded before, for the next create from the same template (create-bodies.ts). */
const createBodies = new CreateBodies();
/** Larger bodies (a ConfigMap's data) are not templates: not worth keeping. */
const MAX_REMEMBERED_BODY = 16 * 1024;

/**
 * readObject for a create, through the create-body memo: the object, and the memo's key when the
 * key stands for the object (the field manager then keys its fields by it too).
 */
export async function readNewObject(ctx: RequestContext, kv: KindVersion): Promise<{ object: KubeObject; contentKey: string | undefined }> {
  const bytes = await readBody(ctx.req);
  const fieldValidation = fieldValidationOf(ctx.query, ctx.info.verb);
  const cut = bytes.length <= MAX_REMEMBERED_BODY && isJsonBody(ctx.req.headers['content-type']) ? cutBody(`${apiVersionOf(kv)}/${kv.kind}\u0000${fieldValidation}`, bytes) : undefined;
  let decoded = cut === undefined ? undefined : createBodies.recall(cut);
  const known = decoded !== undefined;
  decoded ??= decodeBytes(ctx, kv, bytes, fieldValidation);
  const kept = known || (cut !== undefined && createBodies.remember(cut, bytes, decoded));
  ctx.warnings.push(...decoded.warnings);
  return { object: objectFromBody(kv, decoded), contentKey: kept ? cut!.key : undefined };
}
