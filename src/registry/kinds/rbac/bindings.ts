// What RoleBinding and ClusterRoleBinding share (pkg/apis/rbac/validation): a roleRef to a role of
// the RBAC group, immutable; subjects that are User/Group (apiGroup rbac.authorization.k8s.io) or
// ServiceAccount (no apiGroup, a namespace in ClusterRoleBindings); and kubectl's table of a
// binding: its role (`Kind/name`) and age, and with -o wide the users, groups and service accounts.
import { list, obj, str, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isValidPathSegmentName, validateServiceAccountName } from '../../../machinery/validation/names.js';
import { ageCell, arr, nameCell } from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import { RBAC_GROUP } from './group.js';

/** ValidateRoleBindingSubject. */
export function validateSubject(subject: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject.name);
  const apiGroup = str(subject.apiGroup);
  if (name === '') errs.push(fieldError.required(`${path}.name`));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of validateServiceAccountName(name, false)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
      if (apiGroup !== '') errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && str(subject.namespace) === '') errs.push(fieldError.required(`${path}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(fieldError.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.kind`, str(subject.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

/** The roleRef and subjects of a RoleBinding (`namespaced`) or ClusterRoleBinding. */
export function validateBinding(binding: Obj, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = obj(binding.roleRef);
  if (str(ref.apiGroup) !== RBAC_GROUP) errs.push(fieldError.notSupported('roleRef.apiGroup', str(ref.apiGroup), [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(str(ref.kind))) errs.push(fieldError.notSupported('roleRef.kind', str(ref.kind), kinds));
  const name = str(ref.name);
  if (name === '') errs.push(fieldError.required('roleRef.name'));
  else for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid('roleRef.name', name, msg));
  list(binding.subjects).forEach((s, i) => errs.push(...validateSubject(obj(s), namespaced, `subjects[${i}]`)));
  return errs;
}

/** Go's %#v of an rbac.RoleRef, as the "cannot change roleRef" error prints it. */
function goRoleRef(ref: Obj): string {
  return `rbac.RoleRef{APIGroup:${JSON.stringify(str(ref.apiGroup))}, Kind:${JSON.stringify(str(ref.kind))}, Name:${JSON.stringify(str(ref.name))}}`;
}

/** An update keeps the roleRef. */
export function validateRoleRefUnchanged(binding: Obj, old: Obj): FieldError[] {
  const a = obj(binding.roleRef);
  const b = obj(old.roleRef);
  if (str(a.apiGroup) === str(b.apiGroup) && str(a.kind) === str(b.kind) && str(a.name) === str(b.name)) return [];
  return [fieldError.invalidRaw('roleRef', goRoleRef(a), 'cannot change roleRef')];
}

/** Kubernetes' SubjectsStrings: user names, group names, service accounts as namespace/name. */
function subjectsStrings(subjects: unknown): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of arr(subjects)) {
    if (s.kind === 'User') users.push(str(s.name));
    else if (s.kind === 'Group') groups.push(str(s.name));
    else if (s.kind === 'ServiceAccount') sas.push(str(s.namespace) === '' ? str(s.name) : `${str(s.namespace)}/${str(s.name)}`);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

export const roleBindingPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Role', 'string', 'Role references the role this binding refers to.'),
    ageColumn,
    column('Users', 'string', 'Users in the binding.', 1),
    column('Groups', 'string', 'Groups in the binding.', 1),
    column('ServiceAccounts', 'string', 'ServiceAccounts in the binding.', 1),
  ],
  cells(o, now) {
    const ref = obj(o.roleRef);
    return [nameCell(o), `${str(ref.kind)}/${str(ref.name)}`, ageCell(o, now), ...subjectsStrings(o.subjects)];
  },
};
