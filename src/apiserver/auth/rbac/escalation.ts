// RBAC's escalation prevention: nobody grants permissions they do not hold. Creating or updating a
// Role/ClusterRole with rules the user does not have, or binding a role whose rules the user does
// not have, is forbidden — unless the user may `escalate` that role (roles) or `bind` it
// (bindings), or is in system:masters. As Kubernetes' rbac policy-based storage does it, before
// the object is validated or stored.
import { nameOf } from '../../../api/meta/object.js';
import { StatusError } from '../../../machinery/status.js';
import { semanticEqual } from '../../../machinery/validation/common.js';
import { SYSTEM_MASTERS, type Authorizer, type UserInfo } from '../types.js';
import { compactRules, compactString, covers, rulesOf, type Rule } from './rules.js';

type Obj = Record<string, unknown>;

const GROUP = 'rbac.authorization.k8s.io';
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/**
 * What the check asks of the server's authorization: may the user `escalate` or `bind`, and which
 * rules does the user hold (authorization.ts's Authorization is one).
 */
export interface Permissions {
  authorizer: Authorizer;
  rulesFor(user: UserInfo, namespace: string): { rules: Rule[]; evaluationError: string };
}

/** Reads RBAC objects as the watch cache holds them. */
export interface RoleSource {
  get(resource: 'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings', namespace: string, name: string): Obj | undefined;
}

/**
 * Kubernetes' IsOnlyMutatingGCFields: an update that changes nothing but ownerReferences and
 * finalizers (the garbage collector's and the namespace controller's writes) is not checked.
 */
function onlyGCFieldsChange(object: Obj, old: Obj | undefined): boolean {
  if (old === undefined) return false;
  const copied = structuredClone(object);
  const meta = obj(copied.metadata);
  const oldMeta = obj(old.metadata);
  for (const f of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields']) {
    if (oldMeta[f] === undefined) delete meta[f];
    else meta[f] = oldMeta[f];
  }
  copied.metadata = meta;
  return semanticEqual(copied, old);
}

function forbidden(resource: string, name: string, message: string): StatusError {
  return new StatusError(403, 'Forbidden', `${resource}.${GROUP} "${name}" is forbidden: ${message}`, { details: { name, group: GROUP, kind: resource } });
}

/** Go's %q of a []string: ["a" "b"]. */
const quotedList = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

function confirmNoEscalation(authz: Permissions, user: UserInfo, namespace: string, rules: Rule[]): string | undefined {
  const owner = authz.rulesFor(user, namespace);
  const { covered, missing } = covers(owner.rules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${JSON.stringify(user.name)} (groups=${quotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (owner.evaluationError !== '') msg += `; resolution errors: ${owner.evaluationError}`;
  return msg;
}

async function allowedTo(authz: Permissions, user: UserInfo, verb: string, resource: string, namespace: string, name: string): Promise<boolean> {
  const r = await authz.authorizer.authorize({ user, verb, resourceRequest: true, apiGroup: GROUP, apiVersion: '*', namespace, resource, subresource: '', name, path: '' });
  return r.decision === 'allow';
}

/**
 * Throws 403 when `user` may not write this Role, ClusterRole, RoleBinding or ClusterRoleBinding
 * (`obj` in its stored form, `namespace` '' for the cluster-scoped kinds).
 */
export async function checkEscalation(authz: Permissions, roles: RoleSource, user: UserInfo, resource: string, namespace: string, object: Obj): Promise<void> {
  if (user.groups.includes(SYSTEM_MASTERS)) return;
  if (resource !== 'roles' && resource !== 'clusterroles' && resource !== 'rolebindings' && resource !== 'clusterrolebindings') return;
  const name = nameOf(object);
  if (name !== '' && onlyGCFieldsChange(object, roles.get(resource, namespace, name))) return;
  if (resource === 'roles' || resource === 'clusterroles') {
    if (await allowedTo(authz, user, 'escalate', resource, namespace, name)) return;
    const msg = confirmNoEscalation(authz, user, namespace, rulesOf(object));
    if (msg !== undefined) throw forbidden(resource, name, msg);
    return;
  }
  const ref = obj(object.roleRef);
  const refResource = str(ref.kind) === 'Role' ? 'roles' : 'clusterroles';
  const refName = str(ref.name);
  if (await allowedTo(authz, user, 'bind', refResource, namespace, refName)) return;
  const role = roles.get(refResource, refResource === 'roles' ? namespace : '', refName);
  if (role === undefined) throw forbidden(resource, name, `${refResource.slice(0, -1)}.${GROUP} "${refName}" not found`);
  const msg = confirmNoEscalation(authz, user, namespace, rulesOf(role));
  if (msg !== undefined) throw forbidden(resource, name, msg);
}
