// Tables of the RBAC kinds, as kubectl shows them: roles by name and creation time; bindings with
// their role (`Kind/name`) and age, and with -o wide the users, groups and service accounts.
import { arr, obj, since, str } from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

const name = (o: Record<string, unknown>) => str(obj(o.metadata).name);

export const rolePrinter: TablePrinter = {
  columns: [nameColumn, column('Created At', 'date', 'Time when the role was created.')],
  cells: (o) => [name(o), obj(o.metadata).creationTimestamp ?? null],
};

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
    return [name(o), `${str(ref.kind)}/${str(ref.name)}`, since(obj(o.metadata).creationTimestamp, now), ...subjectsStrings(o.subjects)];
  },
};
