// storage.k8s.io CSIStorageCapacity: ValidateCSIStorageCapacity(Update) (nodeTopology and
// storageClassName fixed once created) and `kubectl get csistoragecapacities`.
import type { CSIStorageCapacity } from '../../../api/types.js';
import { isObj, semanticEqual, validateLabelSelector } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { nameIsDNSSubdomain } from '../../../machinery/validation/names.js';
import { quantityString, toQuantity } from '../../podspec/resource-names.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { column, nameColumn, type TablePrinter } from '../../printers/types.js';

export function validateCSIStorageCapacity(c: CSIStorageCapacity): FieldError[] {
  const errs: FieldError[] = [];
  if (isObj(c.nodeTopology)) errs.push(...validateLabelSelector(c.nodeTopology, 'nodeTopology'));
  const scn = typeof c.storageClassName === 'string' ? c.storageClassName : '';
  for (const msg of nameIsDNSSubdomain(scn, false)) errs.push(fieldError.invalid('storageClassName', scn, msg));
  const q = toQuantity(c.capacity);
  if (q && q.sign() < 0) errs.push(fieldError.invalid('capacity', quantityString(c.capacity), 'must be greater than or equal to 0'));
  return errs;
}

export const csiStorageCapacityStrategy: ResourceStrategy<CSIStorageCapacity> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (c) => validateCSIStorageCapacity(c),
  validateUpdate: (c, old) => {
    const errs = validateCSIStorageCapacity(c);
    if (!semanticEqual(c.nodeTopology, old.nodeTopology)) errs.push(fieldError.invalidOmit('nodeTopology', 'field is immutable'));
    if (c.storageClassName !== old.storageClassName) errs.push(fieldError.invalid('storageClassName', c.storageClassName, 'field is immutable'));
    return errs;
  },
};

const csiStorageCapacityPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('StorageClassName', 'string', 'The class the capacity is reported for.'),
    column('Capacity', 'string', 'The capacity available.'),
  ],
  cells: (o) => [fmt.nameCell(o), fmt.str(o.storageClassName), o.capacity === undefined || o.capacity === null ? '<unset>' : quantityString(o.capacity)],
};

export const csiStorageCapacityModule: KindModule = {
  group: 'storage.k8s.io',
  kind: 'CSIStorageCapacity',
  strategy: csiStorageCapacityStrategy,
  printer: csiStorageCapacityPrinter,
};
