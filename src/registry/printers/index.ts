// The table printer of each resource (by group and resource name), and the default printer
// Kubernetes uses for kinds without one of their own.
import { configMapPrinter, endpointsPrinter, secretPrinter, serviceAccountPrinter, servicePrinter } from './config.js';
import { eventPrinter, leasePrinter, namespacePrinter, nodePrinter } from './cluster.js';
import { obj, str } from './format.js';
import { podPrinter } from './pod.js';
import { roleBindingPrinter, rolePrinter } from './rbac.js';
import { column, nameColumn, type TablePrinter } from './types.js';
import {
  controllerRevisionPrinter,
  cronJobPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  jobPrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './workloads.js';

export type { ColumnDefinition, TablePrinter, TableRowCondition } from './types.js';

/** Kubernetes' default table: the name and the creation time. */
export const defaultPrinter: TablePrinter = {
  columns: [nameColumn, column('Created At', 'date', 'When the object was created.')],
  cells: (o) => [str(obj(o.metadata).name), obj(o.metadata).creationTimestamp ?? null],
};

const printers: Record<string, TablePrinter> = {
  pods: podPrinter,
  nodes: nodePrinter,
  namespaces: namespacePrinter,
  events: eventPrinter,
  configmaps: configMapPrinter,
  secrets: secretPrinter,
  serviceaccounts: serviceAccountPrinter,
  services: servicePrinter,
  endpoints: endpointsPrinter,
  replicationcontrollers: replicationControllerPrinter,
  'apps/deployments': deploymentPrinter,
  'apps/replicasets': replicaSetPrinter,
  'apps/daemonsets': daemonSetPrinter,
  'apps/statefulsets': statefulSetPrinter,
  'apps/controllerrevisions': controllerRevisionPrinter,
  'extensions/deployments': deploymentPrinter,
  'extensions/replicasets': replicaSetPrinter,
  'extensions/daemonsets': daemonSetPrinter,
  'batch/jobs': jobPrinter,
  'batch/cronjobs': cronJobPrinter,
  'coordination.k8s.io/leases': leasePrinter,
  'rbac.authorization.k8s.io/roles': rolePrinter,
  'rbac.authorization.k8s.io/clusterroles': rolePrinter,
  'rbac.authorization.k8s.io/rolebindings': roleBindingPrinter,
  'rbac.authorization.k8s.io/clusterrolebindings': roleBindingPrinter,
};

export function printerFor(group: string, resource: string): TablePrinter {
  return printers[group === '' ? resource : `${group}/${resource}`] ?? defaultPrinter;
}
