// networking.k8s.io IngressClass: pkg/registry/networking/ingressclass/strategy.go and
// ValidateIngressClass / ValidateIngressClassUpdate. The controller is required, at most 250
// bytes, a domain-prefixed path, and immutable; parameters name a kind and object, scoped to the
// cluster (no namespace) or to a namespace (which it must name). Spec changes bump the generation.
import type { IngressClass } from '../../../api/types.js';
import { byteLength, isDNS1123Subdomain, isValidPathSegmentName, validateNamespaceName } from '../../../machinery/validation/names.js';
import { child, str, validateImmutableField } from '../../../machinery/validation/common.js';
import { validateDomainPrefixedPath } from '../../../machinery/validation/domain-names.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { optStruct, struct } from '../../../machinery/validation/structs.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];

function validateParameters(spec: NonNullable<IngressClass['spec']>): FieldError[] {
  const params = optStruct(spec.parameters);
  if (!params) return [];
  const path = 'spec.parameters';
  const errs: FieldError[] = [];
  if (typeof params.apiGroup === 'string') for (const m of isDNS1123Subdomain(params.apiGroup)) errs.push(fieldError.invalid(child(path, 'apiGroup'), params.apiGroup, m));
  for (const key of ['kind', 'name'] as const) {
    const v = str(params[key]);
    if (v === '') errs.push(fieldError.required(child(path, key)));
    else for (const m of isValidPathSegmentName(v)) errs.push(fieldError.invalid(child(path, key), v, m));
  }
  if (typeof params.scope !== 'string') {
    errs.push(fieldError.required(child(path, 'scope')));
    return errs;
  }
  if (!SCOPES.includes(params.scope)) {
    errs.push(fieldError.notSupported(child(path, 'scope'), params.scope, SCOPES));
    return errs;
  }
  const namespace = params.namespace;
  if (params.scope === 'Namespace') {
    if (typeof namespace !== 'string') errs.push(fieldError.required(child(path, 'namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const m of validateNamespaceName(namespace, false)) errs.push(fieldError.invalid(child(path, 'namespace'), namespace, m));
  }
  if (params.scope === 'Cluster' && typeof namespace === 'string') errs.push(fieldError.forbidden(child(path, 'namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

export function validateIngressClassSpec(ingressClass: IngressClass): FieldError[] {
  const spec = struct(ingressClass.spec);
  const controller = str(spec.controller);
  const errs: FieldError[] = [];
  if (controller === '') errs.push(fieldError.required('spec.controller'));
  else {
    if (byteLength(controller) > MAX_CONTROLLER_LENGTH) errs.push(fieldError.tooLong('spec.controller', MAX_CONTROLLER_LENGTH));
    errs.push(...validateDomainPrefixedPath('spec.controller', controller));
  }
  errs.push(...validateParameters(spec));
  return errs;
}

export const ingressClassStrategy: ResourceStrategy<IngressClass> = {
  hasStatus: false,
  tracksGeneration: true,
  validate: (ingressClass) => validateIngressClassSpec(ingressClass),
  validateUpdate: (ingressClass, old) => [
    ...validateImmutableField(str(struct(ingressClass.spec).controller), str(struct(old.spec).controller), 'spec.controller'),
    ...validateIngressClassSpec(ingressClass),
  ],
};

const ingressClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    let parameters = '<none>';
    if (fmt.isObject(spec.parameters)) {
      const p = spec.parameters;
      parameters = fmt.str(p.kind) + (typeof p.apiGroup === 'string' ? `.${p.apiGroup}` : '') + `/${fmt.str(p.name)}`;
    }
    return [fmt.nameCell(o), fmt.str(spec.controller), parameters, fmt.ageCell(o, now)];
  },
};

export const ingressClassModule: KindModule = { group: 'networking.k8s.io', kind: 'IngressClass', strategy: ingressClassStrategy, printer: ingressClassPrinter };
