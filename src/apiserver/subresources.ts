// Subresources other than status, each write through the admission chain with its subresource: scale (autoscaling/v1 Scale for deployments, replicasets,
// replicationcontrollers and statefulsets), pods/binding (the scheduler), pods/eviction, namespaces/finalize, the beta
// deployments' rollback, and the node-backed pod subresources (proxy, portforward, exec, attach,
// log), which answer with a clear Status while no node agent can serve them.
import { Binding } from '../api/core/v1/binding.js';
import { Status } from '../api/meta/v1.js';
import { Scale } from '../api/autoscaling/v1.js';
import { Eviction } from '../api/policy/v1.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { decodeParsed, parseJson } from '../machinery/codec/json.js';
import { StatusError } from '../machinery/status.js';
import { applyPatch as apply, patchTypeFromContentType } from '../machinery/patch/index.js';
import { fieldError } from '../machinery/validation/field-errors.js';
import { apiError } from '../registry/errors.js';
import { subresourceStrategyFor, validateBinding } from '../registry/strategies/index.js';
import { metaOf, str, timestamp } from '../registry/meta.js';
import { decodeBody } from './decode.js';
import { encodeObject, encodeOther, type Body } from './encode.js';
import { readBody } from './http/body.js';
import { writeBytes } from './http/respond.js';
import { applyScale, fieldManagerOf, isApply } from './apply.js';
import { handleTokenRequest } from './serviceaccount-token-request.js';
import { admissionOf, namespaceOf, resolve, type RequestContext } from './request/context.js';
import { dryRunOf, fieldValidationOf, validatePatchOptions } from './request/options.js';
import { admitSubresourceWrite, scaleOf } from './subresource-admission.js';

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

async function handleScale(ctx: RequestContext, kv: KindVersion): Promise<void> {
  requireVerb(ctx, 'get', 'update', 'patch');
  const { store } = resolve(ctx);
  const namespace = namespaceOf(ctx, kv);
  const name = ctx.info.name;
  if (ctx.info.verb === 'get') return reply(ctx, 200, encodeOther(scaleOf(await store.get(namespace, name), kv), Scale, ctx.format));
  if (ctx.info.verb === 'patch') validatePatchOptions(ctx);
  const body = await readBody(ctx.req);
  if (ctx.info.verb === 'patch' && isApply(ctx)) {
    return reply(ctx, 200, encodeOther(scaleOf(await applyScale(ctx, kv, store, namespace, body), kv), Scale, ctx.format));
  }
  let requested: KubeObject | undefined;
  if (ctx.info.verb === 'update') {
    const decoded = decodeBody(body, ctx.req.headers['content-type'], Scale, { fieldValidation: fieldValidationOf(ctx.query, ctx.info.verb) });
    ctx.warnings.push(...decoded.warnings);
    requested = decoded.object;
  }
  const rvPin = requested ? str(metaOf(requested).resourceVersion) : '';
  const dryRun = dryRunOf(ctx.query, ctx.info.verb);
  const result = await store.guaranteedUpdate(namespace, name, async (current) => {
    let scale = requested === undefined ? undefined : structuredClone(requested);
    if (!scale) {
      const type = patchTypeFromContentType(ctx.req.headers['content-type'], { strategic: true, apply: false });
      const patched = apply(type as 'json' | 'merge' | 'strategic', scaleOf(current, kv), parseJson(body), Scale);
      scale = decodeParsed<KubeObject>(patched, null, Scale, fieldValidationOf(ctx.query, ctx.info.verb), undefined, body).object;
    }
    const replicasOf = (s: KubeObject) => (s.spec as KubeObject | undefined)?.replicas ?? 0;
    await admitSubresourceWrite(ctx, store, 'UPDATE', scale, scaleOf(current, kv), dryRun, () => {
      const replicas = replicasOf(scale);
      if (typeof replicas !== 'number' || replicas < 0) {
        throw apiError.invalid('Scale', 'autoscaling', name, [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
      }
    });
    return { ...current, spec: { ...((current.spec as KubeObject) ?? {}), replicas: replicasOf(scale) } };
  }, { dryRun, expectResourceVersion: rvPin === '' ? undefined : rvPin, fieldManager: fieldManagerOf(ctx, kv, 'scale') });
  reply(ctx, 200, encodeOther(scaleOf(result.object, kv), Scale, ctx.format));
}

async function handleBinding(ctx: RequestContext, kv: KindVersion): Promise<void> {
  requireVerb(ctx, 'create');
  const { store } = resolve(ctx);
  const namespace = namespaceOf(ctx, kv);
  const binding = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], Binding, { fieldValidation: 'Ignore' }).object;
  const bindingErrors = validateBinding(binding);
  if (bindingErrors.length > 0) throw apiError.invalid('Binding', '', ctx.info.name, bindingErrors);
  const node = str(((binding.target ?? {}) as KubeObject).name);
  const now = Date.now();
  await store.guaranteedUpdate(namespace, ctx.info.name, (pod) => {
    const pm = metaOf(pod);
    if (pm.deletionTimestamp) throw apiError.conflict({ group: '', resource: 'pods' }, ctx.info.name, `pod ${ctx.info.name} is being deleted, cannot be assigned to a host`);
    const spec = (pod.spec ?? {}) as KubeObject;
    if (str(spec.nodeName) !== '') {
      throw apiError.conflict({ group: '', resource: 'pods/binding' }, ctx.info.name, `pod ${ctx.info.name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
    }
    const annotations = (metaOf(binding).annotations ?? {}) as Record<string, string>;
    if (Object.keys(annotations).length > 0) pm.annotations = { ...((pm.annotations as object) ?? {}), ...annotations };
    spec.nodeName = node;
    pod.spec = spec;
    const status = (pod.status ?? {}) as KubeObject;
    const conditions = Array.isArray(status.conditions) ? (status.conditions as KubeObject[]).filter((c) => c.type !== 'PodScheduled') : [];
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timestamp(now) });
    status.conditions = conditions;
    pod.status = status;
    return pod;
  }, { dryRun: dryRunOf(ctx.query, ctx.info.verb), strategy: subresourceStrategyFor('', 'pods', 'binding'), admission: admissionOf(ctx, store, dryRunOf(ctx.query, ctx.info.verb)) });
  success(ctx, 201);
}

async function handleEviction(ctx: RequestContext, kv: KindVersion): Promise<void> {
  requireVerb(ctx, 'create');
  const { store } = resolve(ctx);
  const eviction = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], Eviction, { fieldValidation: 'Ignore' }).object;
  const opts = (eviction.deleteOptions ?? {}) as KubeObject;
  const pre = (opts.preconditions ?? {}) as { uid?: string; resourceVersion?: string };
  const dryRun = dryRunOf(ctx.query, ctx.info.verb) || (Array.isArray(opts.dryRun) && opts.dryRun.includes('All'));
  await store.delete(namespaceOf(ctx, kv), ctx.info.name, {
    admission: admissionOf(ctx, store, dryRun),
    gracePeriodSeconds: typeof opts.gracePeriodSeconds === 'number' ? opts.gracePeriodSeconds : undefined,
    preconditions: { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined },
    dryRun,
  });
  success(ctx, 201);
}

async function handleFinalize(ctx: RequestContext, kv: KindVersion): Promise<void> {
  requireVerb(ctx, 'update');
  const { store } = resolve(ctx);
  const body = decodeBody(await readBody(ctx.req), ctx.req.headers['content-type'], kv.type, { fieldValidation: fieldValidationOf(ctx.query, ctx.info.verb) });
  const finalizers = ((body.object.spec as KubeObject | undefined)?.finalizers ?? []) as string[];
  const dryRun = dryRunOf(ctx.query, ctx.info.verb);
  const result = await store.guaranteedUpdate('', ctx.info.name, (ns) => {
    ns.spec = { ...((ns.spec as KubeObject) ?? {}), finalizers: finalizers.length > 0 ? finalizers : undefined };
    return ns;
  }, { dryRun, strategy: subresourceStrategyFor('', 'namespaces', 'finalize'), admission: admissionOf(ctx, store, dryRun) });
  reply(ctx, 200, encodeObject(result.object, kv, ctx.format));
}

async function handleRollback(ctx: RequestContext, kv: KindVersion): Promise<void> {
  requireVerb(ctx, 'create');
  const { store } = resolve(ctx);
  const body = parseJson(await readBody(ctx.req)) as KubeObject;
  const name = str(body.name);
  if (name !== ctx.info.name) throw apiError.badRequest(`the name of the object (${name}) does not match the name on the URL (${ctx.info.name})`);
  const dryRun = dryRunOf(ctx.query, ctx.info.verb);
  // A rollback is the create of a DeploymentRollback, for admission as for Kubernetes' REST storage.
  await admitSubresourceWrite(ctx, store, 'CREATE', body, undefined, dryRun);
  const revision = ((body.rollbackTo ?? {}) as KubeObject).revision ?? 0;
  const updated = (body.updatedAnnotations ?? {}) as Record<string, string>;
  await store.guaranteedUpdate(namespaceOf(ctx, kv), name, (d) => {
    const m = metaOf(d);
    // Stored (apps/v1) deployments keep the beta rollbackTo as Kubernetes' conversion annotation.
    m.annotations = { ...((m.annotations as object) ?? {}), ...updated, 'deprecated.deployment.rollback.to': String(revision) };
    return d;
  }, { dryRun });
  success(ctx, 200, { message: `rollback request for deployment ${JSON.stringify(name)} succeeded` });
}

export async function handleSubresource(ctx: RequestContext): Promise<void> {
  const { kv } = resolve(ctx);
  const sub = ctx.info.subresource;
  const served = (kv.subresources as Record<string, boolean | undefined> | undefined)?.[sub];
  switch (sub) {
    case 'scale':
      if (served) return handleScale(ctx, kv);
      break;
    case 'binding':
      if (served) return handleBinding(ctx, kv);
      break;
    case 'eviction':
      if (served) return handleEviction(ctx, kv);
      break;
    case 'finalize':
      if (served) return handleFinalize(ctx, kv);
      break;
    case 'rollback':
      if (served) return handleRollback(ctx, kv);
      break;
    case 'token':
      if (served) return handleTokenRequest(ctx);
      break;
    case 'proxy':
    case 'portforward':
    case 'exec':
    case 'attach':
    case 'log':
      if (kv.resource === 'pods') {
        const pod = await resolve(ctx).store.get(namespaceOf(ctx, kv), ctx.info.name);
        const node = str((pod.spec as KubeObject | undefined)?.nodeName);
        if (node === '') throw StatusError.badRequest(`pod ${ctx.info.name} does not have a host assigned`);
        throw new StatusError(503, 'ServiceUnavailable', `${sub} is not available: node ${node} is a simulated kubelite node without a container runtime to connect to`);
      }
      break;
  }
  throw apiError.unknownResource();
}
