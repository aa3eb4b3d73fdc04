// flowcontrol.apiserver.k8s.io FlowSchema (pkg/registry/flowcontrol/flowschema): status kept apart
// from the spec, generation counted on spec changes.
import type { FlowSchema } from '../../../api/types.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { validateFlowSchema, validateFlowSchemaStatus } from './validation.js';

export const flowSchemaStrategy: ResourceStrategy<FlowSchema> = {
  hasStatus: true,
  tracksGeneration: true,
  validate: (fs) => validateFlowSchema(fs),
  validateUpdate: (fs) => validateFlowSchema(fs),
  validateStatusUpdate: (fs) => validateFlowSchemaStatus(fs),
};

/** kubectl's columns (printFlowSchema); MissingPL is the Dangling condition's status, `?` without one. */
export const flowSchemaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('PriorityLevel', 'string', 'name is the name of the priority level configuration being referenced Required.'),
    column('MatchingPrecedence', 'string', 'matchingPrecedence is used to choose among the FlowSchemas that match a given request.'),
    column('DistinguisherMethod', 'string', 'distinguisherMethod defines how to compute the flow distinguisher for requests that match this schema.'),
    ageColumn,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const method = fmt.obj(spec.distinguisherMethod);
    const dangling = fmt.arr(fmt.obj(o.status).conditions).find((c) => c.type === 'Dangling');
    return [
      fmt.nameCell(o),
      fmt.str(fmt.obj(spec.priorityLevelConfiguration).name),
      fmt.int(spec.matchingPrecedence),
      fmt.isObject(spec.distinguisherMethod) ? fmt.str(method.type) : '<none>',
      fmt.ageCell(o, now),
      dangling ? fmt.str(dangling.status) : '?',
    ];
  },
};

export const flowSchemaModule: KindModule = { group: 'flowcontrol.apiserver.k8s.io', kind: 'FlowSchema', strategy: flowSchemaStrategy, printer: flowSchemaPrinter };
