// networking.k8s.io IPAddress (GA in 1.33): pkg/registry/networking/ipaddress/strategy.go and
// ValidateIPAddress / ValidateIPAddressUpdate. The name is the address itself, in canonical form;
// spec.parentRef (the object the address is allocated to) is required and immutable.
import type { IPAddress } from '../../../api/types.js';
import { child, semanticEqual, str } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goString, goStruct, rawError } from '../../../machinery/validation/go-syntax.js';
import { validateIPStrict } from '../../../machinery/validation/ip-strict.js';
import { isDNS1123Subdomain, isValidPathSegmentName, type NameValidator } from '../../../machinery/validation/names.js';
import { optStruct, struct } from '../../../machinery/validation/structs.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';

/** ValidateIPAddressName: the name must be an IP address as IsValidIP wants it (no generated names). */
export const ipAddressNameValidator: NameValidator = (name) => validateIPStrict('', name).map((e) => e.detail);

type ParentRef = NonNullable<NonNullable<IPAddress['spec']>['parentRef']>;

export function validateIPAddressSpec(ip: IPAddress): FieldError[] {
  const ref = optStruct(struct(ip.spec).parentRef);
  if (!ref) return [fieldError.required('spec.parentRef')];
  const path = 'spec.parentRef';
  const errs: FieldError[] = [];
  const group = str(ref.group);
  if (group !== '') for (const m of isDNS1123Subdomain(group)) errs.push(fieldError.invalid(child(path, 'group'), group, m));
  for (const key of ['resource', 'name'] as const) {
    const v = str(ref[key]);
    if (v === '') errs.push(fieldError.required(child(path, key)));
    else for (const m of isValidPathSegmentName(v)) errs.push(fieldError.invalid(child(path, key), v, m));
  }
  const namespace = str(ref.namespace);
  if (namespace !== '') for (const m of isValidPathSegmentName(namespace)) errs.push(fieldError.invalid(child(path, 'namespace'), namespace, m));
  return errs;
}

/** %#v of the dereferenced *ParentReference, as ValidateImmutableField prints it. */
function goParentRef(ref: ParentRef | undefined): string {
  if (!ref) return '"null"';
  return goStruct('networking.ParentReference', [
    ['Group', goString(ref.group)],
    ['Resource', goString(ref.resource)],
    ['Namespace', goString(ref.namespace)],
    ['Name', goString(ref.name)],
  ]);
}

export const ipAddressStrategy: ResourceStrategy<IPAddress> = {
  hasStatus: false,
  tracksGeneration: false,
  nameValidator: ipAddressNameValidator,
  validate: (ip) => validateIPAddressSpec(ip),
  validateUpdate: (ip, old) => {
    const ref = optStruct(struct(ip.spec).parentRef);
    const oldRef = optStruct(struct(old.spec).parentRef);
    const errs = validateIPAddressSpec(ip);
    if (!semanticEqual(ref, oldRef)) errs.push(rawError('FieldValueInvalid', 'spec.parentRef', goParentRef(ref), 'field is immutable'));
    return errs;
  },
};

/** printIPAddress: `<resource>.<group>[/<namespace>]/<name>` of the parent. */
const ipAddressPrinter: TablePrinter = {
  columns: [nameColumn, column('ParentRef', 'string', 'The object the address is allocated to.')],
  cells: (o) => {
    const ref = fmt.obj(fmt.obj(o.spec).parentRef);
    if (!fmt.isObject(fmt.obj(o.spec).parentRef)) return [fmt.nameCell(o), '<none>'];
    const group = fmt.str(ref.group);
    let parent = (group === '' ? fmt.str(ref.resource) : `${fmt.str(ref.resource)}.${group}`).toLowerCase();
    if (fmt.str(ref.namespace) !== '') parent += `/${fmt.str(ref.namespace)}`;
    return [fmt.nameCell(o), `${parent}/${fmt.str(ref.name)}`];
  },
};

export const ipAddressModule: KindModule = { group: 'networking.k8s.io', kind: 'IPAddress', strategy: ipAddressStrategy, printer: ipAddressPrinter };
