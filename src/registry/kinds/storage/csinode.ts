// storage.k8s.io CSINode: ValidateCSINode(Update) (driver names, node IDs, topology keys; an
// existing driver entry cannot change) and `kubectl get csinodes`.
import type { CSINode } from '../../../api/types.js';
import { obj, objs, optNum, semanticEqual, strs, validateImmutableField, validateNonnegativeField } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isQualifiedName } from '../../../machinery/validation/names.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import { validateCSIDriverName } from '../../podspec/volume-sources.js';

/** csiNodeIDMaxLength; 256 only for a node that already had a longer ID. */
const nodeIDMaxLength = 192;
const nodeIDLongerMaxLength = 256;

function validateDrivers(node: CSINode, maxNodeID: number): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(obj(node.spec).drivers).forEach((d, i) => {
    const p = `spec.drivers[${i}]`;
    const name = typeof d.name === 'string' ? d.name : '';
    errs.push(...validateCSIDriverName(name, `${p}.name`));
    const nodeID = typeof d.nodeID === 'string' ? d.nodeID : '';
    if (nodeID.length === 0) errs.push(fieldError.required(`${p}.nodeID`));
    if (nodeID.length > maxNodeID) errs.push(fieldError.invalid(`${p}.nodeID`, nodeID, `must be ${maxNodeID} characters or less`));
    const count = optNum(obj(d.allocatable).count);
    if (count !== undefined) errs.push(...validateNonnegativeField(count, `${p}.allocatable.count`));
    if (names.has(name)) errs.push(fieldError.duplicate(`${p}.name`, name));
    names.add(name);
    const keys = new Set<string>();
    for (const k of strs(d.topologyKeys)) {
      if (k.length === 0) errs.push(fieldError.required(p));
      if (keys.has(k)) errs.push(fieldError.duplicate(p, k));
      keys.add(k);
      for (const msg of isQualifiedName(k)) errs.push(fieldError.invalid(p, k, msg));
    }
  });
  return errs;
}

const hasLongNodeID = (node: CSINode): boolean => objs(obj(node.spec).drivers).some((d) => typeof d.nodeID === 'string' && d.nodeID.length > nodeIDMaxLength);

export const csiNodeStrategy: ResourceStrategy<CSINode> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (n) => validateDrivers(n, nodeIDMaxLength),
  validateUpdate: (n, old) => {
    const errs = validateDrivers(n, hasLongNodeID(old) ? nodeIDLongerMaxLength : nodeIDMaxLength);
    // MutableCSINodeAllocatableCount is off in 1.33: a driver entry present in both is immutable whole.
    for (const o of objs(obj(old.spec).drivers)) {
      for (const d of objs(obj(n.spec).drivers)) {
        if (o.name === d.name && !semanticEqual(d, o)) errs.push(...validateImmutableField(d, o, 'spec.drivers'));
      }
    }
    return errs;
  },
};

const csiNodePrinter: TablePrinter = {
  columns: [nameColumn, column('Drivers', 'integer', 'The number of CSI drivers on the node.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), objs(fmt.obj(o.spec).drivers).length, fmt.ageCell(o, now)],
};

export const csiNodeModule: KindModule = { group: 'storage.k8s.io', kind: 'CSINode', strategy: csiNodeStrategy, printer: csiNodePrinter };
