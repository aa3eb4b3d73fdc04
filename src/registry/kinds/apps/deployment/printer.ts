// The deployment table kubectl shows: READY (ready/desired), UP-TO-DATE, AVAILABLE, and the wide
// template columns.
import { ageCell, int, nameCell, obj } from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import { wideCells, wideTemplateColumns } from '../../../printers/template-columns.js';

export const deploymentPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageColumn,
    ...wideTemplateColumns(
      'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    return [nameCell(o), `${int(status.readyReplicas)}/${int(spec.replicas)}`, int(status.updatedReplicas), int(status.availableReplicas), ageCell(o, now), ...wideCells(spec)];
  },
};
