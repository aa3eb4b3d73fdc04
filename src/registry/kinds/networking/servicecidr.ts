// networking.k8s.io ServiceCIDR (GA in 1.33): pkg/registry/networking/servicecidr/strategy.go and
// ValidateServiceCIDR / ValidateServiceCIDRUpdate. One or two CIDRs, one per IP family, checked
// with the strict rules of new fields; they cannot change, except that a single-stack range may
// gain a second family. Kubernetes' main strategy leaves the status alone (it neither resets it on
// create nor keeps the old one on update: hasStatus is false here for that reason); a write to
// servicecidrs/status keeps the spec.
import type { ServiceCIDR } from '../../../api/types.js';
import { FieldImmutableErrorMsg, index, strs } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goString } from '../../../machinery/validation/go-syntax.js';
import { cidrFamily, validateCIDRStrict } from '../../../machinery/validation/ip-strict.js';
import { struct } from '../../../machinery/validation/structs.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';

const PATH = 'spec.cidrs';
const goStrings = (v: readonly string[]) => `[]string{${v.map(goString).join(', ')}}`;

export function validateServiceCIDRSpec(cidrs: readonly string[]): FieldError[] {
  if (cidrs.length === 0) return [fieldError.required(PATH, 'at least one CIDR required')];
  if (cidrs.length > 2) return [fieldError.invalidRaw(PATH, `networking.ServiceCIDRSpec{CIDRs:${goStrings(cidrs)}}`, 'may only hold up to 2 values')];
  const errs = cidrs.flatMap((c, i) => validateCIDRStrict(index(PATH, i), c));
  if (cidrs.length === 2 && cidrFamily(cidrs[0]!) !== '' && cidrFamily(cidrs[0]!) === cidrFamily(cidrs[1]!)) {
    errs.push(fieldError.invalidRaw(PATH, goStrings(cidrs), 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
  }
  return errs;
}

export function validateServiceCIDRUpdate(cidrs: readonly string[], old: readonly string[]): FieldError[] {
  if (cidrs.length === old.length) {
    return old.flatMap((c, i) => (c !== cidrs[i] ? [fieldError.invalid(index(PATH, i), cidrs[i], FieldImmutableErrorMsg)] : []));
  }
  if (old.length === 1 && cidrs.length === 2) {
    const errs = cidrs[0] !== old[0] ? [fieldError.invalid(index(PATH, 0), cidrs[0], FieldImmutableErrorMsg)] : [];
    return [...errs, ...validateServiceCIDRSpec(cidrs)];
  }
  return [fieldError.invalidRaw(PATH, cidrs.length === 0 ? '[]string(nil)' : goStrings(cidrs), FieldImmutableErrorMsg)];
}

const cidrsOf = (o: ServiceCIDR): string[] => strs(struct(o.spec).cidrs);

export const serviceCIDRStrategy: ResourceStrategy<ServiceCIDR> = {
  hasStatus: false,
  tracksGeneration: false,
  validate: (o) => validateServiceCIDRSpec(cidrsOf(o)),
  validateUpdate: (o, old) => validateServiceCIDRUpdate(cidrsOf(o), cidrsOf(old)),
  validateStatusUpdate: () => [],
};

const serviceCIDRPrinter: TablePrinter = {
  columns: [nameColumn, column('CIDRs', 'string', 'The IP ranges cluster IPs are assigned from.'), ageColumn],
  cells: (o, now) => [fmt.nameCell(o), strs(fmt.obj(o.spec).cidrs).join(','), fmt.ageCell(o, now)],
};

export const serviceCIDRModule: KindModule = { group: 'networking.k8s.io', kind: 'ServiceCIDR', strategy: serviceCIDRStrategy, printer: serviceCIDRPrinter };
