// rbac.authorization.k8s.io Role (the rules of one namespace): its strategy and columns
// (./rbac-strategies.ts, ./rbac-printers.ts).
import type { KindModule } from '../../kind-module.js';
import { rolePrinter } from './rbac-printers.js';
import { RBAC_GROUP, roleStrategy } from './rbac-strategies.js';

export const roleModule: KindModule = { group: RBAC_GROUP, kind: 'Role', strategy: roleStrategy, printer: rolePrinter };
