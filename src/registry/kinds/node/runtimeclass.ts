// node.k8s.io RuntimeClass: ValidateRuntimeClass / ValidateRuntimeClassUpdate (handler a DNS label
// and immutable, the overhead validated as container limits, the scheduling node selector as
// labels and its tolerations as a pod's) and the NAME HANDLER AGE printer. What a RuntimeClass does
// to pods is the RuntimeClass admission plugin's (apiserver/admission/runtime-class.ts).
import type { RuntimeClass } from '../../../api/types.js';
import { isDNS1123Label } from '../../../machinery/validation/names.js';
import { str, validateImmutableField, validateLabels } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { struct } from '../../../machinery/validation/structs.js';
import { validateTolerations } from '../../podspec/index.js';
import { validateResourceRequirements } from '../../podspec/resource-requirements.js';
import { validateContainerResourceName } from '../../podspec/resource-names.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';

export function validateRuntimeClass(rc: RuntimeClass): FieldError[] {
  const handler = str(rc.handler);
  const errs = isDNS1123Label(handler).map((msg) => fieldError.invalid('handler', handler, msg));
  if (rc.overhead) errs.push(...validateResourceRequirements({ limits: struct(rc.overhead).podFixed as Record<string, string> | undefined }, validateContainerResourceName, new Set(), 'overhead'));
  if (rc.scheduling) {
    const scheduling = struct(rc.scheduling);
    if (scheduling.nodeSelector) errs.push(...validateLabels(scheduling.nodeSelector, 'scheduling.nodeSelector'));
    errs.push(...validateTolerations(rc.scheduling.tolerations, 'scheduling.tolerations'));
  }
  return errs;
}

export const runtimeClassStrategy: ResourceStrategy<RuntimeClass> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (rc) => validateRuntimeClass(rc),
  validateUpdate: (rc, old) => validateImmutableField(rc.handler, old.handler, 'handler'),
};

const runtimeClassPrinter: TablePrinter = {
  columns: [nameColumn, column('Handler', 'string', 'The CRI handler pods of this class run with.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), fmt.str(o.handler), fmt.ageCell(o, now)],
};

export const runtimeClassModule: KindModule = { group: 'node.k8s.io', kind: 'RuntimeClass', strategy: runtimeClassStrategy, printer: runtimeClassPrinter };
