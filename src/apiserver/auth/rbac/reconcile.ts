// The rbac/bootstrap-roles post-start hook: makes the default ClusterRoles and ClusterRoleBindings
// (and the Roles and RoleBindings of kube-system and kube-public) exist and carry at least their default rules and subjects, the way Kubernetes reconciles them:
// a missing object is created; an existing one gets the rules, aggregation selectors, subjects,
// labels and annotations it lacks (nothing is removed); one annotated
// `rbac.authorization.kubernetes.io/autoupdate: "false"` is left as its owner made it; a binding
// whose roleRef differs is deleted and created again (roleRef is immutable).
//
// The deployment's own roles and bindings (a `DeploymentPolicy`: `kubelite up`'s components') are
// kept as given instead: created when missing, their rules, aggregation or subjects written back
// when they differ (a grant taken away from the policy goes from the server too), autoupdate=false
// respected alike.
import { annotationsOf, nameOf, namespaceOf, uidOf } from '../../../api/meta/object.js';
import { StatusError } from '../../../machinery/status.js';
import type { Registry } from '../../../registry/registry.js';
import type { Store } from '../../../registry/store.js';
import { AUTOUPDATE_ANNOTATION, bootstrapPolicy, ruleJson, type ControllerRole } from './bootstrap-policy.js';
import { covers, ruleOf } from './rules.js';

type Obj = Record<string, unknown>;

const GROUP = 'rbac.authorization.k8s.io';
const meta = (o: Obj) => (o.metadata ?? {}) as Obj;
const record = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, string>) : {});

export interface ReconcileReport {
  created: string[];
  updated: string[];
  recreated: string[];
  /** Objects that needed changes but are annotated autoupdate=false. */
  protected: string[];
}

/** Labels and annotations of `expected` added to `existing` where absent (existing values win). Returns whether anything changed. */
function mergeMetadata(existing: Obj, expected: Obj): boolean {
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const have = { ...record(meta(existing)[field]) };
    for (const [k, v] of Object.entries(record(meta(expected)[field]))) {
      if (!(k in have)) {
        have[k] = v;
        changed = true;
      }
    }
    meta(existing)[field] = have;
  }
  return changed;
}

function isProtected(existing: Obj): boolean {
  return annotationsOf(existing)[AUTOUPDATE_ANNOTATION] === 'false';
}

/** The reconciled ClusterRole, or undefined when `existing` already holds everything. */
export function reconcileRole(existing: Obj, expected: Obj): Obj | undefined {
  const next = structuredClone(existing);
  let changed = mergeMetadata(next, expected);
  const have = Array.isArray(next.rules) ? next.rules.map(ruleOf) : [];
  const want = Array.isArray(expected.rules) ? expected.rules.map(ruleOf) : [];
  const { missing } = covers(have, want);
  if (missing.length > 0) {
    next.rules = [...(Array.isArray(next.rules) ? next.rules : []), ...missing.map(ruleJson)];
    changed = true;
  }
  const wantAgg = record(expected.aggregationRule) as unknown as { clusterRoleSelectors?: unknown[] };
  if (Array.isArray(wantAgg.clusterRoleSelectors)) {
    const agg = (next.aggregationRule ?? {}) as { clusterRoleSelectors?: unknown[] };
    const selectors = Array.isArray(agg.clusterRoleSelectors) ? [...agg.clusterRoleSelectors] : [];
    for (const s of wantAgg.clusterRoleSelectors) {
      if (!selectors.some((h) => JSON.stringify(h) === JSON.stringify(s))) {
        selectors.push(s);
        changed = true;
      }
    }
    next.aggregationRule = { ...agg, clusterRoleSelectors: selectors };
  }
  return changed ? next : undefined;
}

const subjectId = (s: unknown) => {
  const o = record(s);
  return `${o.kind ?? ''}\0${o.apiGroup ?? ''}\0${o.name ?? ''}\0${o.namespace ?? ''}`;
};

/** The reconciled binding ('recreate' when its roleRef differs), or undefined when nothing is missing. */
export function reconcileBinding(existing: Obj, expected: Obj): Obj | 'recreate' | undefined {
  if (JSON.stringify(existing.roleRef) !== JSON.stringify(expected.roleRef)) return 'recreate';
  const next = structuredClone(existing);
  let changed = mergeMetadata(next, expected);
  const subjects = Array.isArray(next.subjects) ? [...next.subjects] : [];
  const have = new Set(subjects.map(subjectId));
  for (const s of Array.isArray(expected.subjects) ? expected.subjects : []) {
    if (!have.has(subjectId(s))) {
      subjects.push(s);
      changed = true;
    }
  }
  if (subjects.length > 0) next.subjects = subjects;
  return changed ? next : undefined;
}

/** The role or binding with the rules, aggregation or subjects (and labels) of `expected`, or undefined when it has them already. */
export function replaceContent(existing: Obj, expected: Obj, kind: 'role' | 'binding'): Obj | 'recreate' | undefined {
  if (kind === 'binding' && JSON.stringify(existing.roleRef) !== JSON.stringify(expected.roleRef)) return 'recreate';
  const next = structuredClone(existing);
  let changed = mergeMetadata(next, expected);
  for (const field of kind === 'role' ? ['rules', 'aggregationRule'] : ['subjects']) {
    if (JSON.stringify(existing[field]) === JSON.stringify(expected[field])) continue;
    if (expected[field] === undefined) delete next[field];
    else next[field] = structuredClone(expected[field]);
    changed = true;
  }
  return changed ? next : undefined;
}

async function getOrUndefined(store: Store, namespace: string, name: string): Promise<Obj | undefined> {
  try {
    return await store.get(namespace, name);
  } catch (err) {
    if (err instanceof StatusError && err.code === 404) return undefined;
    throw err;
  }
}

const retriable = (err: unknown) => err instanceof StatusError && (err.reason === 'Conflict' || err.reason === 'AlreadyExists' || err.code === 404);

async function reconcileOne(store: Store, expected: Obj, report: ReconcileReport, kind: 'role' | 'binding', asGiven = false): Promise<void> {
  const name = nameOf(expected);
  const namespace = namespaceOf(expected);
  const id = namespace === '' ? name : `${namespace}/${name}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const existing = await getOrUndefined(store, namespace, name);
      if (existing === undefined) {
        await store.create(namespace, structuredClone(expected));
        report.created.push(id);
        return;
      }
      const next = asGiven ? replaceContent(existing, expected, kind) : kind === 'role' ? reconcileRole(existing, expected) : reconcileBinding(existing, expected);
      if (next === undefined) return;
      if (isProtected(existing)) {
        report.protected.push(id);
        return;
      }
      if (next === 'recreate') {
        await store.delete(namespace, name, { preconditions: { uid: uidOf(existing) } });
        await store.create(namespace, structuredClone(expected));
        report.recreated.push(id);
        return;
      }
      await store.update(namespace, name, next);
      report.updated.push(id);
      return;
    } catch (err) {
      // Another API server reconciling at the same time: look again.
      if (attempt < 3 && retriable(err)) continue;
      throw err;
    }
  }
}

/** ClusterRoles and ClusterRoleBindings a deployment keeps beside the default policy (`kubelite apiserver --bootstrap-policy-file`). */
export interface DeploymentPolicy {
  clusterRoles: readonly Obj[];
  clusterRoleBindings: readonly Obj[];
}

export async function reconcileBootstrapPolicy(registry: Registry, controllerRoles: readonly ControllerRole[] = [], deployment?: DeploymentPolicy): Promise<ReconcileReport> {
  const report: ReconcileReport = { created: [], updated: [], recreated: [], protected: [] };
  const roles = registry.store(GROUP, 'clusterroles')!;
  const bindings = registry.store(GROUP, 'clusterrolebindings')!;
  const policy = bootstrapPolicy(controllerRoles);
  // Side by side, roles and bindings alike: the writes share storage commits instead of waiting
  // one after the other (a binding may name a role that does not exist yet; it grants nothing
  // until the role does, and the server is not ready before both are in place).
  const nsRoles = registry.store(GROUP, 'roles')!;
  const nsBindings = registry.store(GROUP, 'rolebindings')!;
  await Promise.all([
    ...policy.clusterRoles.map((r) => reconcileOne(roles, r, report, 'role')),
    ...policy.roles.map((r) => reconcileOne(nsRoles, r, report, 'role')),
    ...policy.clusterRoleBindings.map((b) => reconcileOne(bindings, b, report, 'binding')),
    ...policy.roleBindings.map((b) => reconcileOne(nsBindings, b, report, 'binding')),
    ...(deployment?.clusterRoles ?? []).map((r) => reconcileOne(roles, r, report, 'role', true)),
    ...(deployment?.clusterRoleBindings ?? []).map((b) => reconcileOne(bindings, b, report, 'binding', true)),
  ]);
  return report;
}
