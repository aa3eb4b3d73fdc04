// Request bodies as objects of the served kind: decoded in the URL's version (with the request's
// field validation), their kind checked, defaulted, and converted to the storage version. A
// create goes through the registry's fast path, so the next create from the same template skips
// the decode.
import { noteRequestObject } from '../audit/auditor.js';
import { apiVersionOf } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { apiError } from '../../registry/errors.js';
import { str } from '../../registry/meta.js';
import { decodeBody, isJsonBody, type DecodedBody } from '../decode.js';
import { readBody } from '../http/body.js';
import type { RequestContext } from './context.js';
import { fieldValidationOf, type FieldValidation } from './options.js';
import { pruneUnknownFields } from './prune-unknown.js';
import { hubOf } from './conversion.js';

/** The Go package of a group's internal types, as conversion errors name them (core.ConfigMap, apps.Deployment). */
function internalPackage(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

/** A decoded request body as an object of the served kind: its kind checked, pruned and defaulted. */
function servedFromBody(kv: KindVersion, body: DecodedBody, validation: FieldValidation, warnings: string[]): KubeObject {
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
  pruneUnknownFields(kv, obj, validation, warnings);
  kv.defaults?.(obj);
  return obj;
}

/** servedFromBody, converted to the storage version. */
function objectFromBody(kv: KindVersion, body: DecodedBody, validation: FieldValidation, warnings: string[]): KubeObject {
  const obj = servedFromBody(kv, body, validation, warnings);
  return kv.toHub ? kv.toHub(obj) : obj;
}

function decodeBytes(ctx: RequestContext, kv: KindVersion, bytes: Buffer, fieldValidation: FieldValidation): DecodedBody {
  const decoded = decodeBody(bytes, ctx.req.headers['content-type'], kv.type, { fieldValidation, defaultGVK: { group: kv.group, version: kv.version, kind: kv.kind } });
  noteRequestObject(ctx.req, decoded.object);
  return decoded;
}

/** The request body of an update as the object to store. */
export async function readObject(ctx: RequestContext, kv: KindVersion): Promise<KubeObject> {
  const decoded = decodeBytes(ctx, kv, await readBody(ctx.req), fieldValidationOf(ctx.query, ctx.info.verb));
  ctx.warnings.push(...decoded.warnings);
  return hubOf(kv, servedFromBody(kv, decoded, fieldValidationOf(ctx.query, ctx.info.verb), ctx.warnings));
}

// A custom resource's kind is rebuilt whenever its CRD changes: templates decoded for one
// build are not reused by the next.
const builds = new WeakMap<KindVersion, number>();
let nextBuild = 0;

/** What create-body templates are remembered under: the served kind (and build, for custom resources). */
function templateScope(kv: KindVersion): string {
  if (!kv.custom) return `${apiVersionOf(kv)}/${kv.kind}`;
  let build = builds.get(kv);
  if (build === undefined) builds.set(kv, (build = nextBuild++));
  return `${apiVersionOf(kv)}/${kv.kind}#${build}`;
}

/**
 * readObject for a create: a JSON body through the registry's fast path, which decodes a body
 * from a template it has seen once per template.
 */
export async function readNewObject(ctx: RequestContext, kv: KindVersion): Promise<KubeObject> {
  const bytes = await readBody(ctx.req);
  const fieldValidation = fieldValidationOf(ctx.query, ctx.info.verb);
  const decode = () => decodeBytes(ctx, kv, bytes, fieldValidation);
  const finish = (decoded: DecodedBody) => {
    ctx.warnings.push(...decoded.warnings);
    return objectFromBody(kv, decoded, fieldValidation, ctx.warnings);
  };
  // Conversion by webhook is a call: it cannot happen inside the fast path's synchronous finish.
  if (kv.custom?.prepare) {
    const decoded = decode();
    ctx.warnings.push(...decoded.warnings);
    return hubOf(kv, servedFromBody(kv, decoded, fieldValidation, ctx.warnings));
  }
  if (!isJsonBody(ctx.req.headers['content-type'])) return finish(decode());
  return ctx.registry.fastPath.createFromBody(`${templateScope(kv)}\u0000${fieldValidation}`, bytes, decode, finish);
}
