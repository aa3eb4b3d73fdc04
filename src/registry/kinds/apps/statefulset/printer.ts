// The stateful set table kubectl shows: READY (ready/desired), and the template's containers and
// images with -o wide (no selector column, as kubectl).
import { ageCell, int, nameCell, obj, templateContainers } from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';

export const statefulSetPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'Ready pods out of desired pods.'),
    ageColumn,
    column('Containers', 'string', 'Names of each container in the template.', 1),
    column('Images', 'string', 'Images referenced by each container in the template.', 1),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const { names, images } = templateContainers(spec.template);
    return [nameCell(o), `${int(obj(o.status).readyReplicas)}/${int(spec.replicas)}`, ageCell(o, now), names, images];
  },
};
