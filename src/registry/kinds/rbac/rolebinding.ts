// rbac.authorization.k8s.io RoleBinding (grants a role's rules in one namespace): its strategy and columns
// (./rbac-strategies.ts, ./rbac-printers.ts).
import type { KindModule } from '../../kind-module.js';
import { roleBindingPrinter } from './rbac-printers.js';
import { RBAC_GROUP, roleBindingStrategy } from './rbac-strategies.js';

export const roleBindingModule: KindModule = { group: RBAC_GROUP, kind: 'RoleBinding', strategy: roleBindingStrategy, printer: roleBindingPrinter };
