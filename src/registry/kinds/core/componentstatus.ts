// ComponentStatus: computed on each read by the API server (apiserver/component-statuses.ts),
// never written, so its strategy refuses nothing and is never asked; what the module carries is
// the columns of `kubectl get componentstatuses` (printComponentStatus: NAME STATUS MESSAGE ERROR).
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { column, nameColumn, type TablePrinter } from '../../printers/types.js';

/** The Healthy condition as kubectl shows it: Healthy when True, else Unhealthy; Unknown without one. */
export function componentCells(o: Record<string, unknown>): [string, string, string] {
  const healthy = fmt.arr(o.conditions).find((c) => c.type === 'Healthy');
  if (!healthy) return ['Unknown', '', ''];
  return [healthy.status === 'True' ? 'Healthy' : 'Unhealthy', fmt.str(healthy.message), fmt.str(healthy.error)];
}

const componentStatusPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  cells: (o) => [fmt.nameCell(o), ...componentCells(o)],
};

export const componentStatusModule: KindModule = {
  group: '',
  kind: 'ComponentStatus',
  strategy: { hasStatus: false, tracksGeneration: false, validate: () => [], validateUpdate: () => [] },
  printer: componentStatusPrinter,
  verbs: ['get', 'list'],
};
