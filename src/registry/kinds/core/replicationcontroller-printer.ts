// The replication controller table kubectl shows: a ReplicaSet's columns, with the map selector
// printed as labels.
import { ageCell, formatMap, int, nameCell, obj, templateContainers } from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import { wideTemplateColumns } from '../../printers/template-columns.js';

const RC_DOC = 'https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller';

/** core/v1 replicationcontrollers: a ReplicaSet's columns, with the map selector printed as labels. */
export const replicationControllerPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Desired', 'integer', `Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: ${RC_DOC}`),
    column('Current', 'integer', `Replicas is the most recently observed number of replicas. More info: ${RC_DOC}`),
    column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    ageColumn,
    ...wideTemplateColumns(
      'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const { names, images } = templateContainers(spec.template);
    return [nameCell(o), int(spec.replicas), int(status.replicas), int(status.readyReplicas), ageCell(o, now), names, images, formatMap(spec.selector)];
  },
};
