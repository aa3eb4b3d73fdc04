// The RBAC policy in memory: every Role, ClusterRole, RoleBinding and ClusterRoleBinding, with the
// bindings indexed by subject (user name, group name; a service account subject is indexed under
// its user name `system:serviceaccount:<ns>:<name>`), so a request only looks at the bindings of
// its own user and groups. Fed with changes from the registry's watch cache (see feed.ts); the
// indexes are rebuilt once after a batch of changes, and `generation` tells caches to forget.
import { nameOf, namespaceOf } from '../../../api/meta/object.js';
import { ruleOf, type Rule } from './rules.js';

export type PolicyResource = 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings';

export interface Subject {
  kind: string;
  name: string;
  namespace: string;
}

export interface Binding {
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  name: string;
  /** '' for ClusterRoleBindings. */
  namespace: string;
  roleKind: string;
  roleName: string;
  subjects: readonly Subject[];
}

type Obj = Record<string, unknown>;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** The user name of a service account. */
export function serviceAccountUser(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`;
}

function bindingOf(kind: Binding['kind'], obj: Obj): Binding {
  const ref = (obj.roleRef ?? {}) as Obj;
  const subjects = Array.isArray(obj.subjects)
    ? obj.subjects.map((s: Obj) => ({ kind: str(s?.kind), name: str(s?.name), namespace: str(s?.namespace) }))
    : [];
  return { kind, name: nameOf(obj), namespace: namespaceOf(obj), roleKind: str(ref.kind), roleName: str(ref.name), subjects };
}

/** The index key a subject of a binding in `namespace` is found under, or undefined if it can never apply. */
function subjectKey(s: Subject, namespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return `u:${s.name}`;
    case 'Group':
      return `g:${s.name}`;
    case 'ServiceAccount': {
      // Kubernetes: the subject's namespace, else the binding's; none → applies to nobody.
      const ns = s.namespace !== '' ? s.namespace : namespace;
      return ns === '' ? undefined : `u:${serviceAccountUser(ns, s.name)}`;
    }
    default:
      return undefined;
  }
}

/** A binding with the one subject that made it apply (for reasons). */
export interface AppliedBinding {
  binding: Binding;
  subject: Subject;
}

type SubjectIndex = Map<string, AppliedBinding[]>;

export class PolicyIndex {
  /** Bumped on every change; caches keyed on it forget everything older. */
  generation = 0;
  private objects: Record<PolicyResource, Map<string, Obj>> = {
    roles: new Map(),
    clusterroles: new Map(),
    rolebindings: new Map(),
    clusterrolebindings: new Map(),
  };
  private dirty = true;
  private clusterRoleRules = new Map<string, Rule[]>();
  private namespacedRoleRules = new Map<string, Rule[]>();
  private clusterIndex: SubjectIndex = new Map();
  private namespaceIndex = new Map<string, SubjectIndex>();

  /** An object was added or changed (`obj`), or deleted (`obj` undefined). */
  apply(resource: PolicyResource, namespace: string, name: string, obj: Obj | undefined): void {
    const key = `${namespace}/${name}`;
    if (obj === undefined) this.objects[resource].delete(key);
    else this.objects[resource].set(key, obj);
    this.dirty = true;
    this.generation++;
  }

  /** Replaces every object of a resource at once (a full re-list), keyed `<namespace>/<name>`. */
  replace(resource: PolicyResource, objects: Map<string, Obj>): void {
    this.objects[resource] = objects;
    this.dirty = true;
    this.generation++;
  }

  /** The stored object, if present (for reviews and the escalation check). */
  get(resource: PolicyResource, namespace: string, name: string): Obj | undefined {
    return this.objects[resource].get(`${namespace}/${name}`);
  }

  list(resource: PolicyResource): IterableIterator<Obj> {
    return this.objects[resource].values();
  }

  /** The rules of the role a binding refers to, or an error text when it does not exist (Kubernetes' wording). */
  roleRules(binding: Pick<Binding, 'roleKind' | 'roleName' | 'namespace'>): Rule[] | string {
    this.refresh();
    if (binding.roleKind === 'ClusterRole') return this.clusterRoleRules.get(binding.roleName) ?? `clusterrole.rbac.authorization.k8s.io "${binding.roleName}" not found`;
    if (binding.roleKind === 'Role') return this.namespacedRoleRules.get(`${binding.namespace}/${binding.roleName}`) ?? `role.rbac.authorization.k8s.io "${binding.roleName}" not found`;
    return `unknown role kind "${binding.roleKind}"`;
  }

  /**
   * Visits the bindings that apply to a user: ClusterRoleBindings first, then the RoleBindings of
   * `namespace` (when not ''). Stops when `visit` returns false.
   */
  visitBindings(userName: string, groups: readonly string[], namespace: string, visit: (applied: AppliedBinding) => boolean): void {
    this.refresh();
    if (!visitIndex(this.clusterIndex, userName, groups, visit)) return;
    if (namespace === '') return;
    const index = this.namespaceIndex.get(namespace);
    if (index) visitIndex(index, userName, groups, visit);
  }

  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.clusterRoleRules = new Map();
    for (const o of this.objects.clusterroles.values()) this.clusterRoleRules.set(nameOf(o), rules(o));
    this.namespacedRoleRules = new Map();
    for (const [key, o] of this.objects.roles) this.namespacedRoleRules.set(key, rules(o));
    this.clusterIndex = new Map();
    for (const o of this.objects.clusterrolebindings.values()) addBinding(this.clusterIndex, bindingOf('ClusterRoleBinding', o));
    this.namespaceIndex = new Map();
    for (const o of this.objects.rolebindings.values()) {
      const b = bindingOf('RoleBinding', o);
      let index = this.namespaceIndex.get(b.namespace);
      if (!index) this.namespaceIndex.set(b.namespace, (index = new Map()));
      addBinding(index, b);
    }
  }
}

function rules(role: Obj): Rule[] {
  return Array.isArray(role.rules) ? role.rules.map(ruleOf) : [];
}

function addBinding(index: SubjectIndex, binding: Binding): void {
  for (const subject of binding.subjects) {
    const key = subjectKey(subject, binding.namespace);
    if (key === undefined) continue;
    let list = index.get(key);
    if (!list) index.set(key, (list = []));
    // One entry per binding and key, even if the binding names the subject twice.
    if (list.length > 0 && list[list.length - 1]!.binding === binding) continue;
    list.push({ binding, subject });
  }
}

function visitIndex(index: SubjectIndex, userName: string, groups: readonly string[], visit: (applied: AppliedBinding) => boolean): boolean {
  const forUser = index.get(`u:${userName}`);
  if (forUser) for (const a of forUser) if (!visit(a)) return false;
  for (const g of groups) {
    const forGroup = index.get(`g:${g}`);
    if (forGroup) for (const a of forGroup) if (!visit(a)) return false;
  }
  return true;
}
