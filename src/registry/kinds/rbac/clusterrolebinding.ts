// rbac.authorization.k8s.io ClusterRoleBinding (grants a cluster role's rules everywhere): its strategy and columns
// (./rbac-strategies.ts, ./rbac-printers.ts).
import type { KindModule } from '../../kind-module.js';
import { roleBindingPrinter } from './rbac-printers.js';
import { RBAC_GROUP, clusterRoleBindingStrategy } from './rbac-strategies.js';

export const clusterRoleBindingModule: KindModule = { group: RBAC_GROUP, kind: 'ClusterRoleBinding', strategy: clusterRoleBindingStrategy, printer: roleBindingPrinter };
