// The replica set table kubectl shows: DESIRED, CURRENT, READY, and the wide template columns.
import { ageCell, int, nameCell, obj } from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import { wideCells, wideTemplateColumns } from '../../../printers/template-columns.js';

export const replicaSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller/#what-is-a-replicationcontroller'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageColumn,
    ...wideTemplateColumns(
      'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    return [nameCell(o), int(spec.replicas), int(status.replicas), int(status.readyReplicas), ageCell(o, now), ...wideCells(spec)];
  },
};
