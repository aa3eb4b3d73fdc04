// Server-side apply (PATCH with Content-Type application/apply-patch+yaml, YAML or JSON body) and
// the field manager of every other write: who the writer is (`fieldManager`, else the first
// segment of the User-Agent, as kube-apiserver derives it). The merge, pruning and conflicts are
// machinery/managedfields'; here the configuration is read and checked against the URL, applied
// to the object in the URL's version (creating it when absent), and written through the store.
import { apiVersionOf } from '../api/kinds.js';
import { nameOf, namespaceOf, resourceVersionOf } from '../api/meta/object.js';
import type { KindVersion, KubeObject } from '../api/schema/kind.js';
import { bodyText } from '../machinery/codec/json.js';
import { parseYaml } from '../machinery/codec/yaml.js';
import { apply, kindFields, type Actor } from '../machinery/managedfields/index.js';
import { zeroObject } from '../machinery/typed/index.js';
import { StatusError } from '../machinery/status.js';
import { fieldError } from '../machinery/validation/field-errors.js';
import { apiError } from '../registry/errors.js';
import type { ScaleSubresource } from '../registry/kind-module.js';
import { moduleOf } from '../registry/kinds/index.js';
import { cloneJson, str } from '../registry/meta.js';
import { UNCHANGED, type FieldManagerInfo, type Store } from '../registry/store.js';
import { authError } from './auth/errors.js';
import { readBody } from './http/body.js';
import { admissionOf, type RequestContext } from './request/context.js';
import { dryRunOf, fieldValidationOf, optionsKindOf } from './request/options.js';
import { pruneUnknownFields } from './request/prune-unknown.js';
import { hubOf, prepareServed } from './request/conversion.js';
import { admitSubresourceWrite } from './subresource-admission.js';

export const APPLY_MEDIA_TYPE = 'application/apply-patch+yaml';

/** The request is a server-side apply. */
export function isApply(ctx: RequestContext): boolean {
  return (ctx.req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase() === APPLY_MEDIA_TYPE;
}

/** validation.FieldManagerMaxLength. */
const FIELD_MANAGER_MAX_LENGTH = 128;

/** Go's unicode.IsPrint, closely enough: letters, marks, numbers, punctuation, symbols and ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * The writer of a create/update/patch: `?fieldManager=` (at most 128 bytes, printable: else 422 on
 * the verb's options), else the User-Agent up to its first '/', without unprintable characters
 * and cut at 128 bytes (kube-apiserver's prefixFromUserAgent).
 */
export function fieldManagerOf(ctx: RequestContext, kv: KindVersion, subresource = ''): FieldManagerInfo {
  const given = ctx.query.get('fieldManager') ?? '';
  if (given !== '') {
    const errors = [];
    if (Buffer.byteLength(given) > FIELD_MANAGER_MAX_LENGTH) errors.push(fieldError.tooLong('fieldManager', FIELD_MANAGER_MAX_LENGTH));
    let i = 0;
    for (const ch of given) {
      if (!PRINTABLE.test(ch)) {
        const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
        errors.push(fieldError.invalid('fieldManager', given, `invalid character U+${code} (at position ${i})`));
      }
      i += Buffer.byteLength(ch);
    }
    if (errors.length > 0) throw apiError.invalid(optionsKindOf(ctx.info.verb), 'meta.k8s.io', '', errors);
    return { manager: given, apiVersion: apiVersionOf(kv), subresource };
  }
  let manager = '';
  for (const ch of (ctx.req.headers['user-agent'] ?? '').split('/')[0]!) {
    if (!PRINTABLE.test(ch)) continue;
    if (Buffer.byteLength(manager + ch) > FIELD_MANAGER_MAX_LENGTH) break;
    manager += ch;
  }
  return { manager, apiVersion: apiVersionOf(kv), subresource };
}

/** `apps/v1, Kind=Deployment` (schema.GroupVersionKind's String). */
function gvkString(apiVersion: string, kind: string): string {
  return `${apiVersion.includes('/') ? apiVersion : `/${apiVersion}`}, Kind=${kind}`;
}

/** The applied configuration: a YAML (or JSON) object; duplicate keys as fieldValidation says. */
function readConfig(ctx: RequestContext, bytes: Uint8Array): KubeObject {
  const validation = fieldValidationOf(ctx.query, 'patch');
  let dupMessage = '';
  let parsed: unknown;
  try {
    parsed = parseYaml(bodyText(bytes), validation === 'Ignore' ? undefined : (dups) => {
      dupMessage = 'yaml: unmarshal errors:\n' + dups.map((d) => `  line ${d.line}: key ${JSON.stringify(d.key)} already set in map`).join('\n');
    });
  } catch (err) {
    if (err instanceof StatusError) throw err;
    throw StatusError.badRequest(`error decoding YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw StatusError.badRequest('error decoding YAML: the applied configuration must be an object');
  }
  if (dupMessage !== '') {
    if (validation === 'Strict') throw StatusError.badRequest(`error strict decoding YAML: error converting YAML to JSON: ${dupMessage}`);
    ctx.warnings.push(`error converting YAML to JSON: ${dupMessage}`);
  }
  return parsed as KubeObject;
}

/** versionCheckManager and the patch handler's checks: the configuration is of this kind, version, name and namespace. */
function checkConfig(config: KubeObject, apiVersion: string, kind: string, name: string, namespace: string, namespaced: boolean): void {
  const av = str(config.apiVersion);
  const k = str(config.kind);
  if (av !== apiVersion || k !== kind) throw StatusError.badRequest(`invalid object type: ${gvkString(av, k)}`);
  const configName = nameOf(config);
  if (configName !== '' && configName !== name) {
    throw StatusError.badRequest(`the name of the object (${configName}) does not match the name on the URL (${name})`);
  }
  const configNamespace = namespaceOf(config);
  if (namespaced && configNamespace !== '' && configNamespace !== namespace) {
    throw StatusError.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

function forceOf(ctx: RequestContext): boolean {
  const v = ctx.query.get('force');
  if (v === null || v === '' || v === 'false') return false;
  if (v === 'true') return true;
  throw StatusError.badRequest(`force: invalid boolean value ${JSON.stringify(v)}`);
}

function actorOf(ctx: RequestContext, kv: KindVersion, subresource: string): Actor {
  const m = fieldManagerOf(ctx, kv, subresource);
  return { manager: m.manager, apiVersion: m.apiVersion, subresource, now: Date.now() };
}

/**
 * PATCH application/apply-patch+yaml of an object or its status. Returns the object (storage
 * version) and whether it was created (201).
 */
export async function applyObject(
  ctx: RequestContext,
  kv: KindVersion,
  store: Store,
  namespace: string,
  subresource: '' | 'status',
): Promise<{ object: KubeObject; created: boolean }> {
  const dryRun = dryRunOf(ctx.query, 'patch');
  const force = forceOf(ctx);
  const config = readConfig(ctx, await readBody(ctx.req));
  const name = ctx.info.name;
  checkConfig(config, apiVersionOf(kv), kv.kind, name, namespace, kv.namespaced);
  const kind = kindFields(kv.type, store.strategy.hasStatus);
  const actor = actorOf(ctx, kv, subresource);
  const grantsPermissions = moduleOf(kv).grantsPermissions === true;
  const opts = { force, objectName: `${namespace}/${name}`, gvkString: gvkString(apiVersionOf(kv), kv.kind) };
  const pinned = resourceVersionOf(config);
  const finish = (obj: KubeObject): Promise<KubeObject> => {
    pruneUnknownFields(kv, obj, fieldValidationOf(ctx.query, ctx.info.verb), ctx.warnings);
    kv.defaults?.(obj);
    return hubOf(kv, obj);
  };
  try {
    const result = await store.guaranteedUpdate(
      namespace,
      name,
      async (current) => {
        await prepareServed(kv, [current]);
        const served = kv.fromHub ? kv.fromHub(current) : current;
        if (pinned !== '' && pinned !== resourceVersionOf(served)) throw apiError.modified(store.kind, name);
        const r = apply(served, config, actor, kind, opts);
        // A re-apply of what is there already: nothing to validate or write (the resourceVersion stays).
        if (!r.changed && !r.managedFieldsChanged) return UNCHANGED;
        const next = await finish(r.object);
        // Objects that grant permissions: no one grants what they do not hold (as for any other write).
        if (grantsPermissions) await ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, next);
        return next;
      },
      { dryRun, subresource, admission: admissionOf(ctx, store, dryRun, subresource), warnings: ctx.warnings },
    );
    return { object: result.object, created: false };
  } catch (err) {
    if (!(err instanceof StatusError && err.code === 404 && subresource === '' && err.reason === 'NotFound')) throw err;
  }
  // Absent: apply to the empty object of the kind, and create the result — which needs the
  // permission to create as well as to patch (kube-apiserver's withAuthorization on the create).
  const attrs = { user: ctx.user, verb: 'create', resourceRequest: true, apiGroup: kv.group, apiVersion: kv.version, namespace, resource: kv.resource, subresource: '', name, path: (ctx.req.url ?? '').split('?')[0]! };
  const { decision, reason } = await ctx.authorization.authorizer.authorize(attrs);
  if (decision !== 'allow') throw authError.forbidden(attrs, reason);
  const empty: KubeObject = { ...cloneJson(zeroObject(kv.type)), apiVersion: apiVersionOf(kv), kind: kv.kind, metadata: kv.namespaced ? { name, namespace } : { name } };
  const obj = await finish(apply(empty, config, actor, kind, opts).object);
  await ctx.authorization.checkWrite(ctx.user, store.kind.group, store.kind.resource, namespace, obj);
  return { object: await store.create(namespace, obj, { dryRun, consumeInput: true, admission: admissionOf(ctx, store, dryRun, ''), user: ctx.user, warnings: ctx.warnings }), created: true };
}

/**
 * Apply to the scale subresource: a Scale (autoscaling/v1, or the request's group/version's own:
 * apps/v1beta2, ...) whose spec.replicas is the parent's,
 * owned as the parent's `.spec.replicas` by an entry with subresource "scale".
 */
export async function applyScale(ctx: RequestContext, kv: KindVersion, scaling: ScaleSubresource, store: Store, namespace: string, bytes: Uint8Array): Promise<KubeObject> {
  const dryRun = dryRunOf(ctx.query, 'patch');
  const force = forceOf(ctx);
  const config = readConfig(ctx, bytes);
  const name = ctx.info.name;
  const scaleVersion = kv.scaleKind ? apiVersionOf(kv) : 'autoscaling/v1';
  checkConfig(config, scaleVersion, 'Scale', name, namespace, kv.namespaced);
  for (const k of Object.keys(config)) {
    if (!['apiVersion', 'kind', 'metadata', 'spec', 'status'].includes(k)) {
      throw StatusError.badRequest(`failed to create typed patch object (${namespace}/${name}; ${scaleVersion}, Kind=Scale): .${k}: field not declared in schema`);
    }
  }
  const spec = (config.spec ?? {}) as KubeObject;
  const parentConfig: KubeObject = { apiVersion: apiVersionOf(kv), kind: kv.kind, metadata: { name } };
  if (spec !== null && typeof spec === 'object' && 'replicas' in spec) parentConfig.spec = { replicas: spec.replicas };
  const replicas = spec?.replicas;
  if (replicas !== undefined && replicas !== null && (typeof replicas !== 'number' || replicas < 0)) {
    throw apiError.invalid('Scale', 'autoscaling', name, [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  }
  const kind = kindFields(kv.type, store.strategy.hasStatus);
  const actor = actorOf(ctx, kv, 'scale');
  const opts = { force, objectName: `${namespace}/${name}`, gvkString: gvkString(apiVersionOf(kv), kv.kind) };
  const result = await store.guaranteedUpdate(
    namespace,
    name,
    async (current) => {
      const served = kv.fromHub ? kv.fromHub(current) : current;
      const obj = apply(served, parentConfig, actor, kind, opts).object;
      kv.defaults?.(obj);
      const next = kv.toHub ? kv.toHub(obj) : obj;
      // Admission sees the Scale the apply results in; a mutating plugin's replicas are written.
      const scale = scaling.scaleOf(next);
      await admitSubresourceWrite(ctx, store, 'UPDATE', scale, scaling.scaleOf(current), dryRun);
      const replicas = (scale.spec as KubeObject | undefined)?.replicas;
      return typeof replicas === 'number' ? scaling.withReplicas(next, replicas) : next;
    },
    { dryRun },
  );
  return result.object;
}
