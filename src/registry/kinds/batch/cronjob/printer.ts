// The cron job table kubectl shows: SCHEDULE, SUSPEND, ACTIVE, LAST SCHEDULE, and with -o wide the
// job template's containers, images and selector.
import { ageCell, arr, boolPtr, formatLabelSelector, nameCell, obj, since, str, templateContainers } from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import { wideTemplateColumns } from '../../../printers/template-columns.js';

export const cronJobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.'),
    column('Active', 'integer', 'A list of pointers to currently running jobs.'),
    column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    ageColumn,
    ...wideTemplateColumns(
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const jobSpec = obj(obj(spec.jobTemplate).spec);
    const { names, images } = templateContainers(jobSpec.template);
    const last = typeof status.lastScheduleTime === 'string' ? since(status.lastScheduleTime, now) : '<none>';
    return [nameCell(o), str(spec.schedule), boolPtr(spec.suspend), arr(status.active).length, last, ageCell(o, now), names, images, formatLabelSelector(jobSpec.selector)];
  },
};
