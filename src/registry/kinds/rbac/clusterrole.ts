// rbac.authorization.k8s.io ClusterRole (cluster-wide rules, and the aggregation of other roles' rules): its strategy and columns
// (./rbac-strategies.ts, ./rbac-printers.ts).
import type { KindModule } from '../../kind-module.js';
import { rolePrinter } from './rbac-printers.js';
import { RBAC_GROUP, clusterRoleStrategy } from './rbac-strategies.js';

export const clusterRoleModule: KindModule = { group: RBAC_GROUP, kind: 'ClusterRole', strategy: clusterRoleStrategy, printer: rolePrinter };
