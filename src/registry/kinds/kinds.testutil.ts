// Test helpers: run an object through what the API server does on create and update (defaults of
// its version, the strategy's preparation, ObjectMeta and kind validation) and read the errors as
// kube-apiserver renders them.
import { readFileSync } from 'node:fs';
import { allKinds, findKind } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { formatFieldError, type FieldError } from '../../machinery/validation/field-errors.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../machinery/validation/object-meta.js';
import type { ResourceStrategy, StrategyContext } from '../strategy.js';
import { needsClusterIP, needsHealthCheckNodePort, needsNodePort } from './core/service/strategy.js';
import { hasOwnModule, moduleOf } from './index.js';
import { TESTDATA } from '../../../test/support/vectors.js';

export const OBJECTS = `${TESTDATA}/objects`;
export const ERRORS = `${TESTDATA}/errors`;

export const readJSON = (path: string): KubeObject => JSON.parse(readFileSync(path, 'utf8')) as KubeObject;
export const statusOf = (file: string): Record<string, unknown> => {
  const text = readFileSync(`${ERRORS}/${file}`, 'utf8').replace(/\r/g, '');
  return JSON.parse(text.slice(text.indexOf('\n\n') + 2)) as Record<string, unknown>;
};
export const lines = (errs: FieldError[]): string[] => errs.map(formatFieldError);

/**
 * The strategy of a kind's own module, by the group and resource of its storage version
 * (`apps`, `deployments`). Throws for a resource without one.
 */
export function strategyFor(group: string, resource: string): ResourceStrategy {
  const k = allKinds.find((s) => s.storage && s.group === group && s.resource === resource);
  if (!k || !hasOwnModule(k)) throw new Error(`no strategy for ${group === '' ? 'core' : group}/${resource}`);
  return moduleOf(k).strategy;
}

/** The strategy of a subresource that replaces part of an object or acts on it (pods/binding, namespaces/finalize). */
export function subresourceStrategyFor(group: string, resource: string, subresource: string): ResourceStrategy | undefined {
  const k = allKinds.find((s) => s.storage && s.group === group && s.resource === resource);
  const sub = k ? moduleOf(k).subresources?.[subresource] : undefined;
  return sub?.type === 'replace-part' || sub?.type === 'action' ? sub.strategy : undefined;
}

export function kindOf(obj: KubeObject): KindVersion {
  const k = findKind(String(obj.apiVersion), String(obj.kind));
  if (!k) throw new Error(`unknown kind ${String(obj.apiVersion)} ${String(obj.kind)}`);
  return k;
}

let uids = 0;
export function ctxFor(k: KindVersion, requestGroupVersion?: string): StrategyContext {
  return { kind: k, now: Date.parse('2026-11-22T02:34:38Z'), newUid: () => `00000000-0000-4000-8000-${String(++uids).padStart(12, '0')}`, requestGroupVersion };
}

/** Create as the store does (defaults, status dropped, prepareForCreate, metadata and kind validation). */
export function create(input: KubeObject, namespace = 'vectors'): { obj: KubeObject; errors: FieldError[] } {
  const obj = structuredClone(input);
  const k = kindOf(obj);
  k.defaults?.(obj);
  const meta = (obj.metadata ??= {}) as Record<string, unknown>;
  if (k.namespaced && meta.namespace === undefined) meta.namespace = namespace;
  const s = strategyFor(k.group, k.resource);
  if (s.hasStatus) delete obj.status;
  const ctx = ctxFor(k);
  s.prepareForCreate?.(obj, ctx);
  if (meta.uid === undefined) meta.uid = ctx.newUid();
  if (k.resource === 'services') allocate(obj);
  const errors = [...validateObjectMeta(obj, { namespaced: k.namespaced, nameValidator: s.nameValidator }), ...s.validate(obj, ctx)];
  return { obj, errors };
}

/**
 * What the API server's allocator does to a new Service before it is validated (as Kubernetes'
 * BeginCreate): a cluster IP, node ports, a health check node port.
 */
export function allocate(svc: KubeObject): void {
  const spec = (svc.spec ??= {}) as Record<string, any>;
  if (needsClusterIP(svc) && !spec.clusterIP && !spec.clusterIPs?.length) {
    spec.clusterIP = '10.0.0.10';
    spec.clusterIPs = ['10.0.0.10'];
  }
  let next = 30000;
  if (needsNodePort(svc)) for (const p of spec.ports ?? []) if (!p.nodePort) p.nodePort = next++;
  if (needsHealthCheckNodePort(svc) && !spec.healthCheckNodePort) spec.healthCheckNodePort = 32000;
}

/** Kind validation only (no defaults, no preparation): what `validate` says about `obj` as it is. */
export function validate(obj: KubeObject): string[] {
  const k = kindOf(obj);
  return lines(strategyFor(k.group, k.resource).validate(obj, ctxFor(k)));
}

/** Update as the store does: defaults, prepareForUpdate, metadata update checks, then the kind's. */
export function update(input: KubeObject, old: KubeObject, requestGroupVersion?: string): { obj: KubeObject; errors: FieldError[] } {
  const obj = structuredClone(input);
  const k = kindOf(obj);
  k.defaults?.(obj);
  const s = strategyFor(k.group, k.resource);
  const ctx = ctxFor(k, requestGroupVersion);
  if (s.hasStatus) obj.status = structuredClone(old.status);
  s.prepareForUpdate?.(obj, old, ctx);
  const errors = [...validateObjectMetaUpdate(obj, old), ...s.validateUpdate(obj, old, ctx)];
  return { obj, errors };
}

/** Only the kind's update validation (after prepareForUpdate), without metadata. */
export function updateErrors(input: KubeObject, old: KubeObject, requestGroupVersion?: string): string[] {
  const obj = structuredClone(input);
  const k = kindOf(obj);
  const s = strategyFor(k.group, k.resource);
  const ctx = ctxFor(k, requestGroupVersion);
  s.prepareForUpdate?.(obj, old, ctx);
  return lines(s.validateUpdate(obj, old, ctx));
}

/** A deep copy with `edit` applied. */
export function edit<T extends KubeObject>(obj: T, fn: (o: any) => void): T {
  const copy = structuredClone(obj);
  fn(copy);
  return copy;
}

/** The created objects of the golden vectors, by file name (`Pod.created.json`). */
export const created = (name: string): KubeObject => readJSON(`${OBJECTS}/${name}`);
