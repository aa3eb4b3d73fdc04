// coordination.k8s.io Lease: ValidateLease / ValidateLeaseUpdate.
import type { Lease } from '../../../api/types.js';
import { optNum, optStr } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { struct } from '../../../machinery/validation/structs.js';
import type { ResourceStrategy } from '../../strategy.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

export function validateLeaseSpec(lease: Lease): FieldError[] {
  const spec = struct(lease.spec);
  const errs: FieldError[] = [];
  const duration = optNum(spec.leaseDurationSeconds);
  if (duration !== undefined && duration <= 0) errs.push(fieldError.invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = optNum(spec.leaseTransitions);
  if (transitions !== undefined && transitions < 0) errs.push(fieldError.invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  const strategy = optStr(spec.strategy);
  if (strategy !== undefined && strategy !== 'OldestEmulationVersion') errs.push(fieldError.notSupported('spec.strategy', strategy, ['OldestEmulationVersion']));
  const preferred = optStr(spec.preferredHolder);
  if (preferred !== undefined && preferred !== '' && strategy === undefined) errs.push(fieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  return errs;
}

export const leaseStrategy: ResourceStrategy<Lease> = {
  hasStatus: false,
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  validate: (lease) => validateLeaseSpec(lease),
  validateUpdate: (lease) => validateLeaseSpec(lease),
};

const leasePrinter: TablePrinter = {
  columns: [nameColumn, column('Holder', 'string', 'The current holder of the lease.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), fmt.str(fmt.obj(o.spec).holderIdentity), fmt.ageCell(o, now)],
};

export const leaseModule: KindModule = { group: 'coordination.k8s.io', kind: 'Lease', strategy: leaseStrategy, printer: leasePrinter };
