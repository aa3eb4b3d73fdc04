// The modules of metrics.k8s.io's NodeMetrics and PodMetrics: read-only (get, list), no rules of
// their own (nothing is written), and metrics-server's Table: the name, each resource's usage
// (a pod's summed over its containers) and the window.
import type { KindModule } from '../../kind-module.js';
import { Quantity } from '../../../api/meta/quantity.js';
import type { ResourceStrategy } from '../../strategy.js';
import * as fmt from '../../printers/format.js';
import { column, nameColumn, type TablePrinter } from '../../printers/types.js';

const readOnly: ResourceStrategy = { hasStatus: false, tracksGeneration: false, validate: () => [], validateUpdate: () => [] };

const RESOURCES = ['cpu', 'memory'] as const;

function printer(usageOf: (o: Record<string, unknown>) => Array<Record<string, unknown>>): TablePrinter {
  return {
    columns: [nameColumn, ...RESOURCES.map((r) => column(r, 'string', '', 0, 'quantity')), column('Window', 'string', '', 0, 'duration')],
    cells: (o) => [
      fmt.nameCell(o),
      ...RESOURCES.map((r) => {
        let total: Quantity | undefined;
        for (const u of usageOf(o)) {
          const v = typeof u[r] === 'string' ? Quantity.parse(u[r]) : undefined;
          if (v) total = total ? total.add(v) : v;
        }
        return total ? total.toString() : '';
      }),
      fmt.str(o.window),
    ],
  };
}

export const metricsModules: readonly KindModule[] = [
  { group: 'metrics.k8s.io', kind: 'NodeMetrics', strategy: readOnly, verbs: ['get', 'list'], printer: printer((o) => [fmt.obj(o.usage)]) },
  { group: 'metrics.k8s.io', kind: 'PodMetrics', strategy: readOnly, verbs: ['get', 'list'], printer: printer((o) => fmt.arr(o.containers).map((c) => fmt.obj(c.usage))) },
];
