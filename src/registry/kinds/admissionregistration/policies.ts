// admissionregistration.k8s.io ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding:
// Kubernetes' validation of their specs (paramKind, matchConstraints/matchResources, validations,
// variables, audit annotations, failure policy; policy name, paramRef, validation actions), of the
// policy's status (type checking warnings, conditions), generation on spec changes, and the
// `kubectl get` columns (NAME VALIDATIONS PARAMKIND AGE; NAME POLICYNAME PARAMREF AGE).
// CEL expressions must parse (machinery/cel: `compilation failed: ...` under the expression's
// path); their types are not checked.
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../../../api/types.js';
import type { KubeObject } from '../../../api/schema/kind.js';
import { celCompileError } from '../../../machinery/cel/compile.js';
import { isObj, objs, str, strs, validateLabelName, validateLabelSelector, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPathSegmentName, regexError } from '../../../machinery/validation/names.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { SUPPORTED_FAILURE_POLICIES, SUPPORTED_MATCH_POLICIES, validateCelExpression, validateMatchConditions, validateRuleWithOperations } from './rules.js';

const SUPPORTED_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_AUDIT_VALUE_EXPRESSION = 5 * 1024;
const CEL_RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** validateParamKind: a group/version and a kind that lower-cased is a DNS-1035 label. */
function validateParamKind(kind: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = str(kind.apiVersion);
  if (apiVersion === '') errs.push(fieldError.required(`${path}.apiVersion`));
  else if (apiVersion !== '/' && apiVersion.split('/').length > 2) errs.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  else if (apiVersion !== '/') {
    const slash = apiVersion.indexOf('/');
    const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
    if (group !== '') {
      const groupErrs = isDNS1123Subdomain(group);
      if (groupErrs.length > 0) errs.push(fieldError.invalid(`${path}.apiVersion`, group, groupErrs.join(',')));
    }
    if (version === '') errs.push(fieldError.invalid(`${path}.apiVersion`, apiVersion, 'version must be specified'));
    else {
      const versionErrs = isDNS1035Label(version);
      if (versionErrs.length > 0) errs.push(fieldError.invalid(`${path}.apiVersion`, version, versionErrs.join(',')));
    }
  }
  const kindName = str(kind.kind);
  if (kindName === '') errs.push(fieldError.required(`${path}.kind`));
  else {
    const kindErrs = isDNS1035Label(kindName.toLowerCase());
    if (kindErrs.length > 0) errs.push(fieldError.invalid(`${path}.kind`, kindName, `may have mixed case, but should otherwise match: ${kindErrs.join(',')}`));
  }
  return errs;
}

function validateNamedRuleWithOperations(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  strs(rule.resourceNames).forEach((name, i) => {
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid(`${path}.resourceNames[${i}]`, name, msg));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${path}.resourceNames[${i}]`, name));
    else seen.add(name);
  });
  return [...errs, ...validateRuleWithOperations(rule, path)];
}

/** validateMatchResources: matchPolicy and both selectors required (defaults fill them), rules valid. */
function validateMatchResources(match: unknown, path: string): FieldError[] {
  if (!isObj(match)) return [];
  const errs: FieldError[] = [];
  if (typeof match.matchPolicy !== 'string') errs.push(fieldError.required(`${path}.matchPolicy`));
  else if (!SUPPORTED_MATCH_POLICIES.includes(match.matchPolicy)) errs.push(fieldError.notSupported(`${path}.matchPolicy`, match.matchPolicy, SUPPORTED_MATCH_POLICIES));
  for (const selector of ['namespaceSelector', 'objectSelector']) {
    if (!isObj(match[selector])) errs.push(fieldError.required(`${path}.${selector}`));
    else errs.push(...validateLabelSelector(match[selector], `${path}.${selector}`));
  }
  objs(match.resourceRules).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, `${path}.resourceRules[${i}]`)));
  objs(match.excludeResourceRules).forEach((r, i) => errs.push(...validateNamedRuleWithOperations(r, `${path}.excludeResourceRules[${i}]`)));
  return errs;
}

function validateValidation(v: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const message = str(v.message);
  const messageExpression = str(v.messageExpression);
  const expression = str(v.expression);
  if (expression.trim() === '') errs.push(fieldError.required(`${path}.expression`, 'expression is not specified'));
  else errs.push(...validateCelExpression(expression, `${path}.expression`));
  if (messageExpression !== '' && messageExpression.trim() === '') errs.push(fieldError.invalid(`${path}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  else if (messageExpression !== '') errs.push(...validateCelExpression(messageExpression, `${path}.messageExpression`));
  if (message !== '' && message.trim() === '') errs.push(fieldError.invalid(`${path}.message`, message, 'message must be non-empty if specified'));
  else if (hasNewlines(message.trim())) errs.push(fieldError.invalid(`${path}.message`, message, 'message must not contain line breaks'));
  if (typeof v.reason === 'string' && !SUPPORTED_REASONS.includes(v.reason)) errs.push(fieldError.notSupported(`${path}.reason`, v.reason, SUPPORTED_REASONS));
  return errs;
}

function validateVariable(v: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(v.name);
  if (name.trim() === '') errs.push(fieldError.required(`${path}.name`, 'name is not specified'));
  else if (!/^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) || CEL_RESERVED.has(name)) errs.push(fieldError.invalid(`${path}.name`, name, 'name is not a valid CEL identifier'));
  const expression = str(v.expression);
  if (expression.trim() === '') errs.push(fieldError.required(`${path}.expression`, 'expression is not specified'));
  else errs.push(...validateCelExpression(expression, `${path}.expression`));
  return errs;
}

function validateAuditAnnotation(policyName: string, a: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const key = str(a.key);
  if (policyName !== '') for (const msg of isQualifiedName(`${policyName}/${key}`)) errs.push(fieldError.invalid(`${path}.key`, `${policyName}/${key}`, msg));
  else errs.push(fieldError.invalid(`${path}.key`, key, 'requires metadata.name be non-empty'));
  const value = str(a.valueExpression).trim();
  if (value === '') errs.push(fieldError.required(`${path}.valueExpression`, 'valueExpression is not specified'));
  else if (Buffer.byteLength(value) > MAX_AUDIT_VALUE_EXPRESSION) errs.push(fieldError.required(`${path}.valueExpression`, `must not exceed ${MAX_AUDIT_VALUE_EXPRESSION} bytes in length`));
  else {
    const detail = celCompileError(value);
    if (detail !== undefined) errs.push(fieldError.invalid(`${path}.valueExpression`, str(a.valueExpression), detail));
  }
  return errs;
}

/** validateValidatingAdmissionPolicySpec (CEL compilation aside). */
export function validatePolicySpec(policy: ValidatingAdmissionPolicy, ignoreMatchConditions = false): FieldError[] {
  const spec: Obj = isObj(policy.spec) ? policy.spec : {};
  const errs: FieldError[] = [];
  if (typeof spec.failurePolicy !== 'string') errs.push(fieldError.required('spec.failurePolicy'));
  else if (!SUPPORTED_FAILURE_POLICIES.includes(spec.failurePolicy)) errs.push(fieldError.notSupported('spec.failurePolicy', spec.failurePolicy, SUPPORTED_FAILURE_POLICIES));
  if (isObj(spec.paramKind)) errs.push(...validateParamKind(spec.paramKind, 'spec.paramKind'));
  if (!isObj(spec.matchConstraints)) errs.push(fieldError.required('spec.matchConstraints'));
  else {
    errs.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    // At least one resource rule, to give the expressions their types.
    if (objs(spec.matchConstraints.resourceRules).length === 0) errs.push(fieldError.required('spec.matchConstraints.resourceRules'));
  }
  if (!ignoreMatchConditions) errs.push(...validateMatchConditions(spec.matchConditions, 'spec.matchConditions'));
  objs(spec.variables).forEach((v, i) => errs.push(...validateVariable(v, `spec.variables[${i}]`)));
  const validations = objs(spec.validations);
  const annotations = objs(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0) {
    errs.push(fieldError.required('spec.validations', 'validations or auditAnnotations must contain at least one item'));
    errs.push(fieldError.required('spec.auditAnnotations', 'validations or auditAnnotations must contain at least one item'));
    return errs;
  }
  validations.forEach((v, i) => errs.push(...validateValidation(v, `spec.validations[${i}]`)));
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) errs.push(fieldError.invalidRaw('spec.auditAnnotations', '[]admissionregistration.AuditAnnotation{...}', `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    errs.push(...validateAuditAnnotation(str(policy.metadata?.name), a, `spec.auditAnnotations[${i}]`));
    if (keys.has(str(a.key))) errs.push(fieldError.duplicate(`spec.auditAnnotations[${i}].key`, str(a.key)));
    keys.add(str(a.key));
  });
  return errs;
}

const CONDITION_REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const CONDITION_REASON_MSG = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

/** metav1validation.ValidateConditions. */
function validateConditions(conditions: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(conditions).forEach((c, i) => {
    const at = `${path}[${i}]`;
    const type = str(c.type);
    if (seen.has(type)) errs.push(fieldError.duplicate(`${at}.type`, type));
    seen.add(type);
    errs.push(...validateLabelName(type, `${at}.type`));
    if (!['False', 'True', 'Unknown'].includes(str(c.status))) errs.push(fieldError.notSupported(`${at}.status`, str(c.status), ['False', 'True', 'Unknown']));
    if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0) errs.push(fieldError.invalid(`${at}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'));
    if (!c.lastTransitionTime) errs.push(fieldError.required(`${at}.lastTransitionTime`, 'must be set'));
    const reason = str(c.reason);
    if (reason === '') errs.push(fieldError.required(`${at}.reason`, 'must be set'));
    else {
      if (!new RegExp(`^${CONDITION_REASON_FMT}$`).test(reason)) errs.push(fieldError.invalid(`${at}.reason`, reason, regexError(CONDITION_REASON_MSG, CONDITION_REASON_FMT, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
      if (Buffer.byteLength(reason) > 1024) errs.push(fieldError.tooLong(`${at}.reason`, 1024));
    }
    if (Buffer.byteLength(str(c.message)) > 32 * 1024) errs.push(fieldError.tooLong(`${at}.message`, 32 * 1024));
  });
  return errs;
}

/** validateValidatingAdmissionPolicyStatus: type checking warnings name a field and say something; conditions are metav1 conditions. */
export function validatePolicyStatus(policy: ValidatingAdmissionPolicy): FieldError[] {
  const status: Obj = isObj(policy.status) ? policy.status : {};
  const errs: FieldError[] = [];
  const typeChecking = isObj(status.typeChecking) ? status.typeChecking : undefined;
  objs(typeChecking?.expressionWarnings).forEach((w, i) => {
    const at = `status.typeChecking.expressionWarnings[${i}]`;
    if (str(w.warning) === '') errs.push(fieldError.required(`${at}.warning`));
    if (str(w.fieldRef).trim() === '') errs.push(fieldError.required(`${at}.fieldRef`));
  });
  return [...errs, ...validateConditions(status.conditions, 'status.conditions')];
}

const policyStrategy: ResourceStrategy<ValidatingAdmissionPolicy> = {
  hasStatus: true,
  tracksGeneration: true,
  validate: (policy) => validatePolicySpec(policy),
  // Match conditions that did not change (nor did paramKind) are not checked again.
  validateUpdate: (policy, old) =>
    validatePolicySpec(policy, JSON.stringify(policy.spec?.paramKind) === JSON.stringify(old.spec?.paramKind) && JSON.stringify(policy.spec?.matchConditions) === JSON.stringify(old.spec?.matchConditions)),
  validateStatusUpdate: (policy) => validatePolicyStatus(policy),
};

/** validateParamRef: a name or a selector, not both, and what to do when the param is missing. */
function validateParamRef(ref: unknown, path: string): FieldError[] {
  if (!isObj(ref)) return [];
  const errs: FieldError[] = [];
  const name = str(ref.name);
  const hasSelector = isObj(ref.selector);
  if (name !== '') {
    for (const msg of isValidPathSegmentName(name)) errs.push(fieldError.invalid(`${path}.name`, name, msg));
    if (hasSelector) errs.push(fieldError.forbidden(`${path}.name`, 'name and selector are mutually exclusive'));
  }
  if (hasSelector) {
    errs.push(...validateLabelSelector(ref.selector, `${path}.selector`));
    if (name !== '') errs.push(fieldError.forbidden(`${path}.selector`, 'name and selector are mutually exclusive'));
  }
  if (name === '' && !hasSelector) errs.push(fieldError.required(path, 'one of name or selector must be specified'));
  const action = str(ref.parameterNotFoundAction);
  if (action === '') errs.push(fieldError.required(`${path}.parameterNotFoundAction`));
  else if (action !== 'Deny' && action !== 'Allow') errs.push(fieldError.notSupported(`${path}.parameterNotFoundAction`, action, ['Deny', 'Allow']));
  return errs;
}

function validateValidationActions(actions: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!VALIDATION_ACTIONS.includes(a)) errs.push(fieldError.notSupported(`${path}[${i}]`, a, VALIDATION_ACTIONS));
    if (seen.has(a)) errs.push(fieldError.duplicate(`${path}[${i}]`, a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn')) errs.push(fieldError.invalid(path, actions, 'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)'));
  if (seen.size === 0) errs.push(fieldError.required(path, 'at least one validation action is required'));
  return errs;
}

/** validateValidatingAdmissionPolicyBindingSpec. */
export function validateBindingSpec(binding: ValidatingAdmissionPolicyBinding): FieldError[] {
  const spec: Obj = isObj(binding.spec) ? binding.spec : {};
  const errs: FieldError[] = [];
  const policyName = str(spec.policyName);
  if (policyName === '') errs.push(fieldError.required('spec.policyName'));
  else for (const msg of isDNS1123Subdomain(policyName)) errs.push(fieldError.invalid('spec.policyName', policyName, msg));
  errs.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  errs.push(...validateMatchResources(spec.matchResources, 'spec.matchResources'));
  errs.push(...validateValidationActions(strs(spec.validationActions), 'spec.validationActions'));
  return errs;
}

const bindingStrategy: ResourceStrategy<ValidatingAdmissionPolicyBinding> = {
  hasStatus: false,
  tracksGeneration: true,
  validate: (binding) => validateBindingSpec(binding),
  validateUpdate: (binding) => validateBindingSpec(binding),
};

const policyPrinter: TablePrinter = {
  columns: [nameColumn, column('Validations', 'integer', 'The number of validations.'), column('ParamKind', 'string', 'The kind of the policy\'s parameters.'), ageColumn],
  cells: (o: KubeObject, now) => {
    const spec = fmt.obj(o.spec);
    const paramKind = fmt.isObject(spec.paramKind) ? `${fmt.str(spec.paramKind.apiVersion)}/${fmt.str(spec.paramKind.kind)}` : '<unset>';
    return [fmt.nameCell(o), fmt.arr(spec.validations).length, paramKind, fmt.ageCell(o, now)];
  },
};

/** The ParamRef column: namespace/name (`*` for any namespace), else the selector. */
function paramRefCell(ref: unknown): string {
  if (!fmt.isObject(ref)) return '<unset>';
  const name = fmt.str(ref.name);
  if (name !== '') return `${fmt.str(ref.namespace) || '*'}/${name}`;
  if (fmt.isObject(ref.selector)) return fmt.formatLabelSelector(ref.selector);
  return '<unset>';
}

const bindingPrinter: TablePrinter = {
  columns: [nameColumn, column('PolicyName', 'string', 'The policy bound.'), column('ParamRef', 'string', 'The parameter resource of the binding.'), ageColumn],
  cells: (o: KubeObject, now) => {
    const spec = fmt.obj(o.spec);
    return [fmt.nameCell(o), fmt.str(spec.policyName), paramRefCell(spec.paramRef), fmt.ageCell(o, now)];
  },
};

export const validatingAdmissionPolicyModule: KindModule = {
  group: 'admissionregistration.k8s.io',
  kind: 'ValidatingAdmissionPolicy',
  strategy: policyStrategy as ResourceStrategy,
  printer: policyPrinter,
};

export const validatingAdmissionPolicyBindingModule: KindModule = {
  group: 'admissionregistration.k8s.io',
  kind: 'ValidatingAdmissionPolicyBinding',
  strategy: bindingStrategy as ResourceStrategy,
  printer: bindingPrinter,
};
