// apps ControllerRevision: data is mandatory and immutable, revision non-negative; kubectl's columns
// name the controlling object and the revision.
import { metadataOf } from '../../../api/meta/object.js';
import type { ControllerRevision } from '../../../api/types.js';
import { num, semanticEqual, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { validateNonnegativeField } from '../../../machinery/validation/common.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import { arr, ageCell, int, nameCell, str } from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

export function validateControllerRevision(cr: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(fieldError.required('data', 'data is mandatory'));
  errs.push(...validateNonnegativeField(num(cr.revision), 'revision'));
  return errs;
}

export const controllerRevisionStrategy: ResourceStrategy<ControllerRevision> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (cr) => validateControllerRevision(cr),
  validateUpdate(cr, old) {
    const errs = validateControllerRevision(cr);
    if (!semanticEqual(cr.data, old.data)) {
      errs.push({ type: 'FieldValueInvalid', field: 'data', badValue: { kind: 'raw', text: `runtime.RawExtension{Raw:[]uint8(${JSON.stringify(JSON.stringify(cr.data ?? null))}), Object:runtime.Object(nil)}` }, detail: 'field is immutable' });
    }
    return errs;
  },
};

export const controllerRevisionPrinter: TablePrinter = {
  columns: [nameColumn, column('Controller', 'string', 'The object that owns this revision.'), column('Revision', 'integer', 'The revision number.'), ageColumn],
  cells(o, now) {
    const owner = arr(metadataOf(o).ownerReferences).find((r) => r.controller === true);
    let controller = '<none>';
    if (owner) {
      const apiVersion = str(owner.apiVersion);
      const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
      controller = `${str(owner.kind).toLowerCase()}${group ? `.${group}` : ''}/${str(owner.name)}`;
    }
    return [nameCell(o), controller, int(o.revision), ageCell(o, now)];
  },
};

export const controllerRevisionModule: KindModule = { group: 'apps', kind: 'ControllerRevision', strategy: controllerRevisionStrategy, printer: controllerRevisionPrinter };
