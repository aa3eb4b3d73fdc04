// apps ControllerRevision: data is mandatory and immutable, revision non-negative.
import { num, semanticEqual, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { validateNonnegativeField } from '../../../machinery/validation/common.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import { controllerRevisionPrinter } from '../workload-printers.js';

export function validateControllerRevision(cr: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(fieldError.required('data', 'data is mandatory'));
  errs.push(...validateNonnegativeField(num(cr.revision), 'revision'));
  return errs;
}

export const controllerRevisionStrategy: ResourceStrategy = {
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

export const controllerRevisionModule: KindModule = { group: 'apps', kind: 'ControllerRevision', strategy: controllerRevisionStrategy, printer: controllerRevisionPrinter };
