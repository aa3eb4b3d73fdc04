// The job table kubectl shows: COMPLETIONS (succeeded of wanted), DURATION (start to completion or
// now), and the wide template columns.
import { ageCell, humanDuration, int, nameCell, obj } from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';
import { wideCells, wideTemplateColumns } from '../../../printers/template-columns.js';

export const jobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    column('Duration', 'string', 'Time required to complete the job.'),
    ageColumn,
    ...wideTemplateColumns(
      'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    ),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const succeeded = int(status.succeeded);
    let completions: string;
    if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
    else if (int(spec.parallelism) > 1) completions = `${succeeded}/1 of ${int(spec.parallelism)}`;
    else completions = `${succeeded}/1`;
    let duration = '';
    const start = typeof status.startTime === 'string' ? Date.parse(status.startTime) : NaN;
    if (!Number.isNaN(start)) {
      const end = typeof status.completionTime === 'string' ? Date.parse(status.completionTime) : now;
      duration = humanDuration(end - start);
    }
    return [nameCell(o), completions, duration, ageCell(o, now), ...wideCells(spec)];
  },
};
