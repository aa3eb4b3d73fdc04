// networking.k8s.io Ingress: pkg/registry/networking/ingress/strategy.go and ValidateIngressCreate /
// ValidateIngressUpdate / ValidateIngressStatusUpdate (pkg/apis/networking/validation). Status is
// reset on create and kept on spec writes; ingresses/status keeps the spec; spec changes bump the
// generation. Rules that older objects may already break (invalid TLS secret names, invalid rules
// under wildcard hosts) stay allowed on update when the old object broke them too.
import type { Ingress, IngressBackend } from '../../../api/types.js';
import { annotationsOf } from '../../../api/meta/object.js';
import { child, index, num, str, strs } from '../../../machinery/validation/common.js';
import { isWildcardDNS1123Subdomain } from '../../../machinery/validation/domain-names.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1123Subdomain, isValidPathSegmentName, isValidPortName, isValidPortNum, nameIsDNS1035Label, nameIsDNSSubdomain, parseIP } from '../../../machinery/validation/names.js';
import { optStruct, struct, structs } from '../../../machinery/validation/structs.js';
import type { KindModule } from '../../kind-module.js';
import type { ResourceStrategy } from '../../strategy.js';
import { ingressPrinter } from './ingress-printer.js';
import { validateIPs } from './ip-lists.js';

const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const SUPPORTED_PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

interface IngressOptions {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
}

type Spec = NonNullable<Ingress['spec']>;
type Rule = NonNullable<Spec['rules']>[number];

function validateBackend(backend: IngressBackend, path: string): FieldError[] {
  const resource = optStruct(backend.resource);
  const service = optStruct(backend.service);
  if (resource && service) return [fieldError.invalid(path, '', 'cannot set both resource and service backends')];
  const errs: FieldError[] = [];
  if (resource) {
    const p = child(path, 'resource');
    if (typeof resource.apiGroup === 'string') for (const m of isDNS1123Subdomain(resource.apiGroup)) errs.push(fieldError.invalid(child(p, 'apiGroup'), resource.apiGroup, m));
    for (const key of ['kind', 'name'] as const) {
      const v = str(resource[key]);
      if (v === '') errs.push(fieldError.required(child(p, key)));
      else for (const m of isValidPathSegmentName(v)) errs.push(fieldError.invalid(child(p, key), v, m));
    }
    return errs;
  }
  if (!service) return [fieldError.invalid(path, '', 'resource or service backend is required')];
  const name = str(service.name);
  if (name === '') errs.push(fieldError.required(child(path, 'service', 'name')));
  else for (const m of nameIsDNS1035Label(name, false)) errs.push(fieldError.invalid(child(path, 'service', 'name'), name, m));
  const port = struct(service.port);
  const portName = str(port.name);
  const portNumber = num(port.number);
  if (portName !== '' && portNumber !== 0) errs.push(fieldError.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') for (const m of isValidPortName(portName)) errs.push(fieldError.invalid(child(path, 'service', 'port', 'name'), portName, m));
  else if (portNumber !== 0) for (const m of isValidPortNum(portNumber)) errs.push(fieldError.invalid(child(path, 'service', 'port', 'number'), portNumber, m));
  else errs.push(fieldError.required(path, 'port name or number is required'));
  return errs;
}

function validateHTTPPath(p: NonNullable<NonNullable<Rule['http']>['paths']>[number], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const pathType = p.pathType;
  if (typeof pathType !== 'string') return [fieldError.required(child(path, 'pathType'), 'pathType must be specified')];
  const value = str(p.path);
  const pathField = child(path, 'path');
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(fieldError.invalid(pathField, value, 'must be an absolute path'));
    if (value !== '') {
      for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(fieldError.invalid(pathField, value, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(fieldError.invalid(pathField, value, `cannot end with '${suffix}'`));
    }
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) errs.push(fieldError.invalid(pathField, value, 'must be an absolute path'));
  } else {
    errs.push(fieldError.notSupported(child(path, 'pathType'), pathType, SUPPORTED_PATH_TYPES));
  }
  errs.push(...validateBackend(struct(p.backend), child(path, 'backend')));
  return errs;
}

function validateRuleValue(rule: Rule, path: string): FieldError[] {
  const http = optStruct(rule.http);
  if (!http) return [];
  const errs: FieldError[] = [];
  const paths = structs(http.paths);
  if (paths.length === 0) errs.push(fieldError.required(child(path, 'http', 'paths')));
  paths.forEach((p, i) => errs.push(...validateHTTPPath(p, index(child(path, 'http', 'paths'), i))));
  return errs;
}

function validateHost(path: string, host: string): { errs: FieldError[]; wildcard: boolean } {
  if (host.includes('*')) return { errs: isWildcardDNS1123Subdomain(host).map((m) => fieldError.invalid(path, host, m)), wildcard: true };
  return { errs: isDNS1123Subdomain(host).map((m) => fieldError.invalid(path, host, m)), wildcard: false };
}

function validateSpec(spec: Spec, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  const rules = structs(spec.rules);
  const defaultBackend = optStruct(spec.defaultBackend);
  if (rules.length === 0 && !defaultBackend) {
    errs.push(fieldError.invalidRaw('spec', Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)', 'either `defaultBackend` or `rules` must be specified'));
  }
  if (defaultBackend) errs.push(...validateBackend(defaultBackend, 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    const path = index('spec.rules', i);
    const host = str(rule.host);
    let wildcard = false;
    if (host !== '') {
      if (parseIP(host)) errs.push(fieldError.invalid(child(path, 'host'), host, 'must be a DNS name, not an IP address'));
      const checked = validateHost(child(path, 'host'), host);
      errs.push(...checked.errs);
      wildcard = checked.wildcard;
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, path));
  });
  structs(spec.tls).forEach((tls, i) => {
    const path = index('spec.tls', i);
    strs(tls.hosts).forEach((host, j) => errs.push(...validateHost(index(child(path, 'hosts'), j), host).errs));
    const secretName = str(tls.secretName);
    if (!opts.allowInvalidSecretName && secretName !== '') for (const m of nameIsDNSSubdomain(secretName, false)) errs.push(fieldError.invalid(child(path, 'secretName'), secretName, m));
  });
  if (typeof spec.ingressClassName === 'string') {
    for (const m of nameIsDNSSubdomain(spec.ingressClassName, false)) errs.push(fieldError.invalid('spec.ingressClassName', spec.ingressClassName, m));
  }
  return errs;
}

function hasInvalidSecretName(old: Ingress): boolean {
  return structs(struct(old.spec).tls).some((tls) => str(tls.secretName) !== '' && nameIsDNSSubdomain(str(tls.secretName), false).length > 0);
}

function hasInvalidWildcardRule(old: Ingress): boolean {
  return structs(struct(old.spec).rules).some((rule) => str(rule.host).includes('*') && validateRuleValue(rule, '').length > 0);
}

export function validateIngressCreate(ingress: Ingress): FieldError[] {
  const errs = validateSpec(struct(ingress.spec), { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false });
  const annotation = annotationsOf(ingress)[INGRESS_CLASS_ANNOTATION];
  const className = struct(ingress.spec).ingressClassName;
  if (annotation !== undefined && typeof className === 'string' && annotation !== className) {
    errs.push(fieldError.invalid(`annotations.${INGRESS_CLASS_ANNOTATION}`, annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

export function validateIngressUpdate(ingress: Ingress, old: Ingress): FieldError[] {
  return validateSpec(struct(ingress.spec), { allowInvalidSecretName: hasInvalidSecretName(old), allowInvalidWildcardHostRule: hasInvalidWildcardRule(old) });
}

/** ValidateIngressLoadBalancerStatus: legacy IP checks (an IP already there may stay), hostnames that are DNS names. */
export function validateIngressStatus(ingress: Ingress, old: Ingress): FieldError[] {
  const oldIPs = structs(struct(struct(old.status).loadBalancer).ingress).map((i) => str(i.ip)).filter((ip) => ip !== '');
  const errs: FieldError[] = [];
  structs(struct(struct(ingress.status).loadBalancer).ingress).forEach((lb, i) => {
    const path = index('status.loadBalancer.ingress', i);
    const ip = str(lb.ip);
    if (ip !== '') errs.push(...validateIPs(child(path, 'ip'), ip, oldIPs));
    const hostname = str(lb.hostname);
    if (hostname !== '') {
      for (const m of isDNS1123Subdomain(hostname)) errs.push(fieldError.invalid(child(path, 'hostname'), hostname, m));
      if (parseIP(hostname)) errs.push(fieldError.invalid(child(path, 'hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

export const ingressStrategy: ResourceStrategy<Ingress> = {
  hasStatus: true,
  tracksGeneration: true,
  // WarningsOnCreate: the legacy class annotation without spec.ingressClassName.
  warnings: (ingress, old) =>
    old === undefined && annotationsOf(ingress)[INGRESS_CLASS_ANNOTATION] !== undefined && typeof struct(ingress.spec).ingressClassName !== 'string'
      ? [`annotation "${INGRESS_CLASS_ANNOTATION}" is deprecated, please use 'spec.ingressClassName' instead`]
      : [],
  validate: (ingress) => validateIngressCreate(ingress),
  validateUpdate: (ingress, old) => validateIngressUpdate(ingress, old),
  validateStatusUpdate: (ingress, old) => validateIngressStatus(ingress, old),
};

export const ingressModule: KindModule = { group: 'networking.k8s.io', kind: 'Ingress', strategy: ingressStrategy, printer: ingressPrinter };
