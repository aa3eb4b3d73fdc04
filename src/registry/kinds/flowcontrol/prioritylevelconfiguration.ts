// flowcontrol.apiserver.k8s.io PriorityLevelConfiguration (pkg/registry/flowcontrol/prioritylevelconfiguration):
// status kept apart from the spec, generation counted on spec changes.
import type { PriorityLevelConfiguration } from '../../../api/types.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { validatePriorityLevelConfiguration, validatePriorityLevelConfigurationStatus } from './validation.js';

export const priorityLevelConfigurationStrategy: ResourceStrategy<PriorityLevelConfiguration> = {
  hasStatus: true,
  tracksGeneration: true,
  validate: (pl) => validatePriorityLevelConfiguration(pl),
  validateUpdate: (pl) => validatePriorityLevelConfiguration(pl),
  validateStatusUpdate: (pl) => validatePriorityLevelConfigurationStatus(pl),
};

/** kubectl's columns (printPriorityLevelConfiguration): the queuing figures of a Limited level, `<none>` otherwise. */
export const priorityLevelConfigurationPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Type', 'string', '`type` indicates whether this priority level is subject to limitation on request execution.'),
    column('NominalConcurrencyShares', 'string', '`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level.'),
    column('Queues', 'string', '`queues` is the number of queues for this priority level.'),
    column('HandSize', 'string', '`handSize` is a small positive number that configures the shuffle sharding of requests into queues.'),
    column('QueueLengthLimit', 'string', '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time.'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    let shares: unknown = '<none>';
    let queues: unknown = '<none>';
    let handSize: unknown = '<none>';
    let queueLengthLimit: unknown = '<none>';
    if (fmt.isObject(spec.limited)) {
      shares = fmt.int(spec.limited.nominalConcurrencyShares);
      const queuing = fmt.obj(spec.limited.limitResponse).queuing;
      if (fmt.isObject(queuing)) {
        queues = fmt.int(queuing.queues);
        handSize = fmt.int(queuing.handSize);
        queueLengthLimit = fmt.int(queuing.queueLengthLimit);
      }
    }
    return [fmt.nameCell(o), fmt.str(spec.type), shares, queues, handSize, queueLengthLimit, fmt.ageCell(o, now)];
  },
};

export const priorityLevelConfigurationModule: KindModule = {
  group: 'flowcontrol.apiserver.k8s.io',
  kind: 'PriorityLevelConfiguration',
  strategy: priorityLevelConfigurationStrategy,
  printer: priorityLevelConfigurationPrinter,
};
