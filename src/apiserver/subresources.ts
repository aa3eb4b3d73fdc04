// The subresources other than status, dispatched to what the kind's module declares (see
// registry/kind-module.ts): each kind of subresource has one handler here, for every kind that
// has it. Every write goes through the admission chain with its subresource.
import { nameOf, resourceVersionOf } from '../api/meta/object.js';
import { Status } from '../api/meta/v1.js';
import { Scale } from '../api/autoscaling/v1.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { apiVersionOf } from '../api/kinds.js';
import { decodeParsed, parseJson } from '../machinery/codec/json.js';
import { StatusError } from '../machinery/status.js';
import { applyPatch as apply, patchTypeFromContentType } from '../machinery/patch/index.js';
import { fieldError } from '../machinery/validation/field-errors.js';
import { apiError } from '../registry/errors.js';
import type { ActionSubresource, DeleteBySubresource, DeletePreconditions, NodeConnectionSubresource, ReplacePartSubresource, ScaleSubresource } from '../registry/kind-module.js';
import { moduleOf } from '../registry/kinds/index.js';
import { fromVersionedScale, toVersionedScale } from '../registry/replicas-scale.js';
import { decodeBody } from './decode.js';
import { encodeObject, encodeOther, type Body } from './encode.js';
import { readBody } from './http/body.js';
import { writeBytes } from './http/respond.js';
import { applyScale, fieldManagerOf, isApply } from './apply.js';
import { handleTokenRequest } from './serviceaccount-token-request.js';
import { admissionOf, namespaceOf, resolve, type RequestContext } from './request/context.js';
import { dryRunOf, fieldValidationOf, validatePatchOptions } from './request/options.js';
import { refuseExport } from './request/query-params.js';
import { admitSubresourceWrite } from './subresource-admission.js';
import { checkPatchedName } from './handlers/patch.js';
import { connectionHandler } from './proxy/index.js';

function reply(ctx: RequestContext, code: number, body: Body): void {
  writeBytes(ctx.res, code, body.contentType, body.body, { warnings: ctx.warnings });
}

function success(ctx: RequestContext, code: number, extra: KubeObject = {}): void {
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', ...extra, code };
  reply(ctx, code, encodeOther(status, Status, ctx.format));
}

function requireVerb(ctx: RequestContext, ...verbs: string[]): void {
  if (!verbs.includes(ctx.info.verb)) throw apiError.methodNotAllowed();
}

async function handleScale(ctx: RequestContext, kv: KindVersion, scale: ScaleSubresource): Promise<void> {
  requireVerb(ctx, 'get', 'update', 'patch');
  const { store } = resolve(ctx);
  const namespace = namespaceOf(ctx, kv);
  const name = ctx.info.name;
  // The Scale of the request's group/version (apps/v1beta2 Scale, ...) or autoscaling/v1's; admission
  // and the stored object's update see the autoscaling/v1 form.
  const scaleType = kv.scaleKind ?? Scale;
  const scaleView = (obj: KubeObject): KubeObject => (kv.scaleKind ? toVersionedScale(scale.scaleOf(obj), apiVersionOf(kv)) : scale.scaleOf(obj));
  const answer = (obj: KubeObject): void => reply(ctx, 200, encodeOther(scaleView(obj), scaleType, ctx.format));
  if (ctx.info.verb === 'get') {
    refuseExport(ctx.query); // a GET of scale is Kubernetes' GetResource too
    return answer(await store.get(namespace, name));
  }
  if (ctx.info.verb === 'patch') validatePatchOptions(ctx);
  const body = await readBody(ctx.req);
  if (ctx.info.verb === 'patch' && isApply(ctx)) return answer(await applyScale(ctx, kv, scale, store, namespace, body));
  let requested: KubeObject | undefined;
  if (ctx.info.verb === 'update') {
    const decoded = decodeBody(body, ctx.req.headers['content-type'], scaleType, { fieldValidation: fieldValidationOf(ctx.query, ctx.info.verb) });
    ctx.warnings.push(...decoded.warnings);
    requested = decoded.object;
  }
  const rvPin = requested ? resourceVersionOf(requested) : '';
  const dryRun = dryRunOf(ctx.query, ctx.info.verb);
  const result = await store.guaranteedUpdate(namespace, name, async (current) => {
    let asked = requested === undefined ? undefined : structuredClone(requested);
    if (!asked) {
      const type = patchTypeFromContentType(ctx.req.headers['content-type'], { strategic: true, apply: false });
      const patched = apply(type as 'json' | 'merge' | 'strategic', scaleView(current), parseJson(body), scaleType);
      asked = decodeParsed<KubeObject>(patched, null, scaleType, fieldValidationOf(ctx.query, ctx.info.verb), undefined, body).object;
    }
    if (kv.scaleKind) asked = fromVersionedScale(asked);
    const replicasOf = (s: KubeObject) => (s.spec as KubeObject | undefined)?.replicas ?? 0;
    await admitSubresourceWrite(ctx, store, 'UPDATE', asked, scale.scaleOf(current), dryRun, () => {
      const replicas = replicasOf(asked);
      if (typeof replicas !== 'number' || replicas < 0) {
        throw apiError.invalid('Scale', 'autoscaling', name, [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
      }
    });
    return scale.withReplicas(current, replicasOf(asked) as number);
  }, { dryRun, expectResourceVersion: rvPin === '' ? undefined : rvPin, fieldManager: fieldManagerOf(ctx, kv, 'scale') });
  answer(result.object);
}

async function handleAction(ctx: RequestContext, kv: KindVersion, action: ActionSubresource): Promise<void> {
  requireVerb(ctx, 'create');
  const { store } = resolve(ctx);
  const namespace = namespaceOf(ctx, kv);
  const bytes = await readBody(ctx.req);
  const request = action.request ? decodeBody(bytes, ctx.req.headers['content-type'], action.request, { fieldValidation: 'Ignore' }).object : (parseJson(bytes) as KubeObject);
  // A POST to a resource that acts on another (core/v1 bindings) names its object in the request.
  const name = ctx.info.name !== '' ? ctx.info.name : nameOf(request);
  if (name === '') throw apiError.badRequest('name is required');
  action.check(request, name);
  const dryRun = dryRunOf(ctx.query, ctx.info.verb);
  if (action.admit === 'request') await admitSubresourceWrite(ctx, store, 'CREATE', request, undefined, dryRun);
  const now = Date.now();
  await store.guaranteedUpdate(namespace, name, (stored) => action.apply(stored, request, { name, now }), {
    dryRun,
    strategy: action.strategy,
    admission: action.admit === 'stored' ? admissionOf(ctx, store, dryRun) : undefined,
  });
  const message = action.success.message?.(request);
  success(ctx, action.success.code, message === undefined ? {} : { message });
}

async function handleDeleteBy(ctx: RequestContext, kv: KindVersion, deleteBy: DeleteBySubresource): Promise<void> {
  requireVerb(ctx, 'create');
  const { store } = resolve(ctx);
  const request = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], deleteBy.request, { fieldValidation: 'Ignore' }).object;
  deleteBy.check?.(request, ctx.info.name);
  const opts = deleteBy.deleteOptionsOf(request);
  const dryRun = dryRunOf(ctx.query, ctx.info.verb) || opts.dryRun;
  const namespace = namespaceOf(ctx, kv);
  const remove = async (preconditions: DeletePreconditions): Promise<void> => {
    await store.delete(namespace, ctx.info.name, { admission: admissionOf(ctx, store, dryRun), gracePeriodSeconds: opts.gracePeriodSeconds, preconditions, dryRun });
  };
  if (!deleteBy.guardedDelete) {
    await remove(opts.preconditions);
    return success(ctx, 201);
  }
  const answer = await deleteBy.guardedDelete({
    store,
    namespace,
    name: ctx.info.name,
    preconditions: opts.preconditions,
    dryRun,
    now: Date.now(),
    storeOf: (group, resource) => ctx.registry.store(group, resource),
    remove,
  });
  if (answer) return reply(ctx, typeof answer.code === 'number' ? answer.code : 200, encodeOther(answer, Status, ctx.format));
  success(ctx, 201);
}

async function handleReplacePart(ctx: RequestContext, kv: KindVersion, part: ReplacePartSubresource): Promise<void> {
  if (part.verbs.length === 0) throw apiError.unknownResource();
  requireVerb(ctx, ...part.verbs);
  const { store } = resolve(ctx);
  const namespace = namespaceOf(ctx, kv);
  if (ctx.info.verb === 'get') return reply(ctx, 200, encodeObject(await store.get(namespace, ctx.info.name), kv, ctx.format));
  if (ctx.info.verb === 'patch') validatePatchOptions(ctx);
  const bytes = await readBody(ctx.req);
  const fieldValidation = fieldValidationOf(ctx.query, ctx.info.verb);
  let requested: KubeObject | undefined;
  if (ctx.info.verb === 'update') {
    const body = decodeBody(bytes, ctx.req.headers['content-type'], kv.type, { fieldValidation });
    ctx.warnings.push(...body.warnings);
    requested = kv.toHub ? kv.toHub(body.object) : body.object;
  }
  // A PUT naming a resourceVersion is conditional on it, as any update.
  const rvPin = requested ? resourceVersionOf(requested) : '';
  const dryRun = dryRunOf(ctx.query, ctx.info.verb);
  const result = await store.guaranteedUpdate(namespace, ctx.info.name, (current) => part.replace(current, requested ?? patchedObject(ctx, kv, current, bytes)), {
    dryRun,
    strategy: part.strategy,
    admission: admissionOf(ctx, store, dryRun),
    expectResourceVersion: rvPin === '' ? undefined : rvPin,
    // Recorded in managedFields under the subresource's name, as Kubernetes does.
    fieldManager: fieldManagerOf(ctx, kv, ctx.info.subresource),
  });
  reply(ctx, 200, encodeObject(result.object, kv, ctx.format));
}

/** A JSON, merge or strategic merge patch applied to the stored object as served in `kv`'s version, back in the storage version. */
function patchedObject(ctx: RequestContext, kv: KindVersion, current: KubeObject, bytes: Uint8Array): KubeObject {
  const type = patchTypeFromContentType(ctx.req.headers['content-type'], { strategic: true, apply: false }) as 'json' | 'merge' | 'strategic';
  const served = kv.fromHub ? kv.fromHub(current) : current;
  const patched = apply(type, served, parseJson(bytes), kv.type);
  const decoded = decodeParsed<KubeObject>(patched, null, kv.type, fieldValidationOf(ctx.query, ctx.info.verb), { group: kv.group, version: kv.version, kind: kv.kind }, bytes);
  ctx.warnings.push(...decoded.warnings);
  const obj = decoded.object;
  checkPatchedName(obj, ctx.info.name);
  kv.defaults?.(obj);
  return kv.toHub ? kv.toHub(obj) : obj;
}

async function handleNodeConnection(ctx: RequestContext, kv: KindVersion, connection: NodeConnectionSubresource): Promise<void> {
  const obj = await resolve(ctx).store.get(namespaceOf(ctx, kv), ctx.info.name);
  const node = connection.nodeNameOf(obj);
  if (node === '') throw StatusError.badRequest(`${kv.singular} ${ctx.info.name} does not have a host assigned`);
  throw new StatusError(503, 'ServiceUnavailable', `${ctx.info.subresource} is not implemented yet for kubelite's simulated nodes (node ${node})`);
}

export async function handleSubresource(ctx: RequestContext): Promise<void> {
  const { kv } = resolve(ctx);
  const connection = connectionHandler(ctx);
  if (connection) return connection(ctx);
  const sub = ctx.info.subresource;
  const subresources = moduleOf(kv).subresources ?? {};
  const handler = Object.prototype.hasOwnProperty.call(subresources, sub) ? subresources[sub] : undefined;
  const declared = (kv.subresources as Record<string, boolean | undefined> | undefined)?.[sub] === true;
  // Node connections answer (with why they cannot) though discovery does not list them.
  if (!handler || !(declared || handler.type === 'node-connection')) throw apiError.unknownResource();
  switch (handler.type) {
    case 'scale':
      return handleScale(ctx, kv, handler);
    case 'action':
      return handleAction(ctx, kv, handler);
    case 'delete-by':
      return handleDeleteBy(ctx, kv, handler);
    case 'replace-part':
      return handleReplacePart(ctx, kv, handler);
    case 'token-request':
      return handleTokenRequest(ctx);
    case 'node-connection':
      return handleNodeConnection(ctx, kv, handler);
  }
}
