// pkg/apis/flowcontrol/validation, Kubernetes 1.33: FlowSchema and PriorityLevelConfiguration
// specs and statuses, with Kubernetes' field paths and messages.
import { isObj, list, num, obj, optNum, semanticEqual, str, strs, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { goBool, goInt, goPointer, goString, goStringSlice, goStruct, rawError } from '../../../machinery/validation/go-syntax.js';
import { nameIsDNSSubdomain, validateNamespaceName, validateServiceAccountName } from '../../../machinery/validation/names.js';
import { mandatoryFlowSchemaSpec, mandatoryPriorityLevelSpec } from './bootstrap-configuration.js';

const MAX_MATCHING_PRECEDENCE = 10000;
const MAX_QUEUES = 10_000_000;
/** k8s.io/apiserver/pkg/util/shufflesharding.MaxHashBits. */
const MAX_HASH_BITS = 60;
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const NS_ERR_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

const hasWildcard = (values: readonly string[]): boolean => values.includes('*');

function validateSubject(s: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const present = (k: string): boolean => s[k] !== undefined && s[k] !== null;
  const forbidUser = () => present('user') && errs.push(fieldError.forbidden(`${path}.user`, "user is forbidden when subject kind is not 'User'"));
  const forbidGroup = () => present('group') && errs.push(fieldError.forbidden(`${path}.group`, "group is forbidden when subject kind is not 'Group'"));
  const forbidSA = () => present('serviceAccount') && errs.push(fieldError.forbidden(`${path}.serviceAccount`, "serviceAccount is forbidden when subject kind is not 'ServiceAccount'"));
  switch (s.kind) {
    case 'ServiceAccount': {
      if (!isObj(s.serviceAccount)) errs.push(fieldError.required(`${path}.serviceAccount`, "serviceAccount is required when subject kind is 'ServiceAccount'"));
      else {
        const name = str(s.serviceAccount.name);
        const ns = str(s.serviceAccount.namespace);
        if (name === '') errs.push(fieldError.required(`${path}.serviceAccount.name`));
        else if (name !== '*') for (const m of validateServiceAccountName(name, false)) errs.push(fieldError.invalid(`${path}.serviceAccount.name`, name, m));
        if (ns !== '') for (const m of validateNamespaceName(ns, false)) errs.push(fieldError.invalid(`${path}.serviceAccount.namespace`, ns, m));
        else errs.push(fieldError.required(`${path}.serviceAccount.namespace`, 'must specify namespace for service account'));
      }
      forbidUser();
      forbidGroup();
      break;
    }
    case 'User':
      if (!isObj(s.user)) errs.push(fieldError.required(`${path}.user`, "user is required when subject kind is 'User'"));
      else if (str(s.user.name) === '') errs.push(fieldError.required(`${path}.user.name`));
      forbidSA();
      forbidGroup();
      break;
    case 'Group':
      if (!isObj(s.group)) errs.push(fieldError.required(`${path}.group`, "group is required when subject kind is 'Group'"));
      else if (str(s.group.name) === '') errs.push(fieldError.required(`${path}.group.name`));
      forbidSA();
      forbidUser();
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.kind`, str(s.kind), ['Group', 'ServiceAccount', 'User']));
  }
  return errs;
}

function validateVerbs(verbs: string[], path: string): FieldError[] {
  if (verbs.length === 0) return [fieldError.required(path, 'verbs must contain at least one value')];
  if (hasWildcard(verbs)) return verbs.length > 1 ? [fieldError.invalid(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  if (!verbs.every((v) => SUPPORTED_VERBS.includes(v))) return [fieldError.notSupported(path, verbs, SUPPORTED_VERBS)];
  return [];
}

function validateResourceRule(r: Obj, path: string): FieldError[] {
  const errs = validateVerbs(strs(r.verbs), `${path}.verbs`);
  const apiGroups = strs(r.apiGroups);
  if (apiGroups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  else if (apiGroups.length > 1 && hasWildcard(apiGroups)) errs.push(fieldError.invalid(`${path}.apiGroups`, apiGroups, "if '*' is present, must not specify other api groups"));
  const resources = strs(r.resources);
  if (resources.length === 0) errs.push(fieldError.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && hasWildcard(resources)) errs.push(fieldError.invalid(`${path}.resources`, resources, "if '*' is present, must not specify other resources"));
  const namespaces = strs(r.namespaces);
  if (namespaces.length === 0 && r.clusterScope !== true)
    errs.push(fieldError.required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  else if (hasWildcard(namespaces)) {
    if (namespaces.length > 1) errs.push(fieldError.invalid(`${path}.namespaces`, namespaces, "if '*' is present, must not specify other namespaces"));
  } else namespaces.forEach((ns, i) => validateNamespaceName(ns, false).forEach((m) => errs.push(fieldError.invalid(`${path}.namespaces[${i}]`, ns, NS_ERR_INTRO + m))));
  return errs;
}

/** ValidateNonResourceURLPath: a leading slash, no spaces, no `//`, `*` only as a `/*` suffix. */
export function validateNonResourceURLPath(p: string, path: string): FieldError | undefined {
  if (p === '') return fieldError.invalid(path, p, 'must not be empty');
  if (p === '/') return undefined;
  if (!p.startsWith('/')) return fieldError.invalid(path, p, 'must start with slash');
  if (p.includes(' ')) return fieldError.invalid(path, p, 'must not contain white-space');
  if (p.includes('//')) return fieldError.invalid(path, p, 'must not contain double slash');
  const wildcards = p.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && p.slice(-2) !== '/*')) return fieldError.invalid(path, p, 'wildcard can only do suffix matching');
  return undefined;
}

function validateNonResourceRule(r: Obj, path: string): FieldError[] {
  const errs = validateVerbs(strs(r.verbs), `${path}.verbs`);
  const urls = strs(r.nonResourceURLs);
  if (urls.length === 0) errs.push(fieldError.required(`${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (hasWildcard(urls)) {
    if (urls.length > 1) errs.push(fieldError.invalid(`${path}.nonResourceURLs`, urls, "if '*' is present, must not specify other non-resource URLs"));
  } else urls.forEach((u, i) => { const e = validateNonResourceURLPath(u, `${path}.nonResourceURLs[${i}]`); if (e) errs.push(e); });
  return errs;
}

function validatePolicyRulesWithSubjects(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = list(rule.subjects);
  if (subjects.length === 0) errs.push(fieldError.required(`${path}.subjects`, 'subjects must contain at least one value'));
  subjects.forEach((s, i) => errs.push(...validateSubject(obj(s), `${path}.subjects[${i}]`)));
  const resourceRules = list(rule.resourceRules);
  const nonResourceRules = list(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) errs.push(fieldError.required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errs.push(...validateResourceRule(obj(r), `${path}.resourceRules[${i}]`)));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourceRule(obj(r), `${path}.nonResourceRules[${i}]`)));
  return errs;
}

// Go's %#v of the internal specs, for the "must equal the fixed value" errors (pointers print as addresses).
const goSubject = (s: Obj): string => goStruct('flowcontrol.Subject', [
  ['Kind', goString(s.kind)],
  ['User', goPointer('flowcontrol.UserSubject', s.user)],
  ['Group', goPointer('flowcontrol.GroupSubject', s.group)],
  ['ServiceAccount', goPointer('flowcontrol.ServiceAccountSubject', s.serviceAccount)],
]);
const goSlice = (type: string, items: unknown, each: (o: Obj) => string): string =>
  Array.isArray(items) ? `[]${type}{${items.map((x) => each(obj(x))).join(', ')}}` : `[]${type}(nil)`;
function goFlowSchemaSpec(spec: Obj): string {
  return goStruct('flowcontrol.FlowSchemaSpec', [
    ['PriorityLevelConfiguration', goStruct('flowcontrol.PriorityLevelConfigurationReference', [['Name', goString(obj(spec.priorityLevelConfiguration).name)]])],
    ['MatchingPrecedence', goInt(spec.matchingPrecedence)],
    ['DistinguisherMethod', goPointer('flowcontrol.FlowDistinguisherMethod', spec.distinguisherMethod)],
    ['Rules', goSlice('flowcontrol.PolicyRulesWithSubjects', spec.rules, (r) => goStruct('flowcontrol.PolicyRulesWithSubjects', [
      ['Subjects', goSlice('flowcontrol.Subject', r.subjects, goSubject)],
      ['ResourceRules', goSlice('flowcontrol.ResourcePolicyRule', r.resourceRules, (x) => goStruct('flowcontrol.ResourcePolicyRule', [
        ['Verbs', goStringSlice(x.verbs)], ['APIGroups', goStringSlice(x.apiGroups)], ['Resources', goStringSlice(x.resources)], ['ClusterScope', goBool(x.clusterScope)], ['Namespaces', goStringSlice(x.namespaces)],
      ]))],
      ['NonResourceRules', goSlice('flowcontrol.NonResourcePolicyRule', r.nonResourceRules, (x) => goStruct('flowcontrol.NonResourcePolicyRule', [['Verbs', goStringSlice(x.verbs)], ['NonResourceURLs', goStringSlice(x.nonResourceURLs)]]))],
    ]))],
  ]);
}
const goPriorityLevelSpec = (spec: Obj): string => goStruct('flowcontrol.PriorityLevelConfigurationSpec', [
  ['Type', goString(spec.type)],
  ['Limited', goPointer('flowcontrol.LimitedPriorityLevelConfiguration', spec.limited)],
  ['Exempt', goPointer('flowcontrol.ExemptPriorityLevelConfiguration', spec.exempt)],
]);

/** JSON equality after dropping absent and null members (Go's zero values). */
const sameSpec = (a: unknown, b: unknown): boolean => semanticEqual(JSON.parse(JSON.stringify(a ?? {})), JSON.parse(JSON.stringify(b ?? {})));

export function validateFlowSchemaSpec(name: string, spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = num(spec.matchingPrecedence);
  if (precedence <= 0) errs.push(fieldError.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) errs.push(fieldError.invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && name !== 'exempt') errs.push(fieldError.invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  if (isObj(spec.distinguisherMethod)) {
    const type = str(spec.distinguisherMethod.type);
    if (type !== 'ByNamespace' && type !== 'ByUser')
      errs.push(rawError('FieldValueNotSupported', 'spec.distinguisherMethod.type', goStruct('flowcontrol.FlowDistinguisherMethod', [['Type', goString(type)]]), 'supported values: "ByNamespace", "ByUser"'));
  }
  const plName = str(obj(spec.priorityLevelConfiguration).name);
  if (plName === '') errs.push(fieldError.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  else for (const m of nameIsDNSSubdomain(plName, false)) errs.push(fieldError.invalid('spec.priorityLevelConfiguration.name', plName, m));
  list(spec.rules).forEach((r, i) => errs.push(...validatePolicyRulesWithSubjects(obj(r), `spec.rules[${i}]`)));
  return errs;
}

function validateConditions(status: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(obj(status).conditions).forEach((c, i) => {
    const type = str(obj(c).type);
    if (seen.has(type)) errs.push(fieldError.duplicate(`status.conditions[${i}].type`, type));
    seen.add(type);
    if (type === '') errs.push(fieldError.required(`status.conditions[${i}].type`, 'must not be empty'));
  });
  return errs;
}

export function validateFlowSchema(fs: Obj): FieldError[] {
  const name = str(obj(fs.metadata).name);
  const spec = obj(fs.spec);
  const errs = validateFlowSchemaSpec(name, spec);
  const fixed = mandatoryFlowSchemaSpec(name);
  if (fixed && !sameSpec(spec, fixed)) errs.push(rawError('FieldValueInvalid', 'spec', goFlowSchemaSpec(spec), `spec of '${name}' must equal the fixed value`));
  return [...errs, ...validateConditions(fs.status)];
}

export const validateFlowSchemaStatus = (fs: Obj): FieldError[] => validateConditions(fs.status);

/** shufflesharding.RequiredEntropyBits: bits to deal a hand of handSize from deckSize cards. */
export const requiredEntropyBits = (deckSize: number, handSize: number): number => Math.ceil(Math.log2(deckSize) * handSize);

function validateQueuing(q: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const queues = num(q.queues);
  const handSize = num(q.handSize);
  const limit = num(q.queueLengthLimit);
  if (limit <= 0) errs.push(fieldError.invalid(`${path}.queueLengthLimit`, limit, 'must be positive'));
  if (queues <= 0) errs.push(fieldError.invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(fieldError.invalid(`${path}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errs.push(fieldError.invalid(`${path}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues) errs.push(fieldError.invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS)
    errs.push(fieldError.invalid(`${path}.handSize`, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
  return errs;
}

function validateLimitResponse(lr: Obj, path: string): FieldError[] {
  switch (lr.type) {
    case 'Reject':
      return lr.queuing !== undefined && lr.queuing !== null ? [fieldError.forbidden(`${path}.queuing`, 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      return isObj(lr.queuing) ? validateQueuing(lr.queuing, `${path}.queuing`) : [fieldError.required(`${path}.queuing`, 'must not be empty if limited.limitResponse.type is Limited')];
    default:
      return [fieldError.notSupported(`${path}.type`, str(lr.type), ['Queue', 'Reject'])];
  }
}

function validateLendablePercent(v: number | undefined, path: string): FieldError[] {
  return v !== undefined && (v < 0 || v > 100) ? [fieldError.invalid(path, v, 'must be between 0 and 100, inclusive')] : [];
}

function validateLimited(l: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const shares = num(l.nominalConcurrencyShares);
  if (shares < 0) errs.push(fieldError.invalid(`${path}.nominalConcurrencyShares`, shares, 'must be a non-negative integer'));
  errs.push(...validateLimitResponse(obj(l.limitResponse), `${path}.limitResponse`));
  errs.push(...validateLendablePercent(optNum(l.lendablePercent), `${path}.lendablePercent`));
  const borrowing = optNum(l.borrowingLimitPercent);
  if (borrowing !== undefined && borrowing < 0) errs.push(fieldError.invalid(`${path}.borrowingLimitPercent`, borrowing, 'if specified, must be a non-negative integer'));
  return errs;
}

function validateExempt(e: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const shares = optNum(e.nominalConcurrencyShares);
  if (shares !== undefined && shares < 0) errs.push(fieldError.invalid(`${path}.nominalConcurrencyShares`, shares, 'must be a non-negative integer'));
  errs.push(...validateLendablePercent(optNum(e.lendablePercent), `${path}.lendablePercent`));
  return errs;
}

export function validatePriorityLevelConfigurationSpec(name: string, spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if ((name === 'exempt') !== (type === 'Exempt')) errs.push(fieldError.invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  const present = (k: string): boolean => spec[k] !== undefined && spec[k] !== null;
  switch (type) {
    case 'Exempt':
      if (present('limited')) errs.push(fieldError.forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (isObj(spec.exempt)) errs.push(...validateExempt(spec.exempt, 'spec.exempt'));
      break;
    case 'Limited':
      if (present('exempt')) errs.push(fieldError.forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (!isObj(spec.limited)) errs.push(fieldError.required('spec.limited', 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(spec.limited, 'spec.limited'));
      break;
    default:
      errs.push(fieldError.notSupported('spec.type', type, ['Exempt', 'Limited']));
  }
  return errs;
}

/**
 * The mandatory levels' specs are fixed; of `exempt`, the admin may change spec.exempt
 * (its nominalConcurrencyShares and lendablePercent), nothing else.
 */
function validateMandatoryLevel(name: string, spec: Obj): FieldError[] {
  const fixed = mandatoryPriorityLevelSpec(name);
  if (!fixed) return [];
  if (name === 'exempt') {
    const { exempt: _a, ...want } = fixed as Obj;
    const { exempt: _b, ...have } = spec;
    return sameSpec(want, have) ? [] : [rawError('FieldValueInvalid', 'spec', goPriorityLevelSpec(spec), `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`)];
  }
  return sameSpec(spec, fixed) ? [] : [rawError('FieldValueInvalid', 'spec', goPriorityLevelSpec(spec), `spec of '${name}' must equal the fixed value`)];
}

export function validatePriorityLevelConfiguration(pl: Obj): FieldError[] {
  const name = str(obj(pl.metadata).name);
  const spec = obj(pl.spec);
  return [...validatePriorityLevelConfigurationSpec(name, spec), ...validateMandatoryLevel(name, spec), ...validateConditions(pl.status)];
}

export const validatePriorityLevelConfigurationStatus = (pl: Obj): FieldError[] => validateConditions(pl.status);
