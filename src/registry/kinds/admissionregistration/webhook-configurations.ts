// admissionregistration.k8s.io Mutating- and ValidatingWebhookConfiguration: Kubernetes'
// validation (webhook names fully qualified and unique, rules, policies, side effects None or
// NoneOnDryRun, timeout 1-30 s, selectors, client config, admission review versions, match
// conditions), what an update tolerates of the stored object, generation on webhook changes,
// and the `kubectl get` columns NAME WEBHOOKS AGE.
import type { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from '../../../api/types.js';
import type { KubeObject } from '../../../api/schema/kind.js';
import { isObj, objs, str, strs, validateLabelSelector, type Obj } from '../../../machinery/validation/common.js';
import { fieldError, type FieldError } from '../../../machinery/validation/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain, isValidLabelValue } from '../../../machinery/validation/names.js';
import type { KindModule } from '../../kind-module.js';
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { SUPPORTED_FAILURE_POLICIES, SUPPORTED_MATCH_POLICIES, validateClientConfig, validateMatchConditions, validateRuleWithOperations } from './rules.js';

type WebhookConfiguration = MutatingWebhookConfiguration | ValidatingWebhookConfiguration;

const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
/** The AdmissionReview versions the prior API server version understands. */
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];

interface Options {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
}

const CREATE_OPTIONS: Options = { ignoreMatchConditions: false, requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true, requireUniqueWebhookNames: true, allowInvalidLabelValueInSelector: false };

/** IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function validateFullyQualifiedName(path: string, name: string): FieldError[] {
  if (name === '') return [fieldError.required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [fieldError.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateAdmissionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) return [fieldError.required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(fieldError.invalid(`${path}[${i}]`, v, msg));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldError.invalid(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(hook: Obj, mutating: boolean, opts: Options, path: string): FieldError[] {
  const errs = validateFullyQualifiedName(`${path}.name`, str(hook.name));
  objs(hook.rules).forEach((rule, i) => errs.push(...validateRuleWithOperations(rule, `${path}.rules[${i}]`)));
  if (typeof hook.failurePolicy === 'string' && !SUPPORTED_FAILURE_POLICIES.includes(hook.failurePolicy)) errs.push(fieldError.notSupported(`${path}.failurePolicy`, hook.failurePolicy, SUPPORTED_FAILURE_POLICIES));
  if (typeof hook.matchPolicy === 'string' && !SUPPORTED_MATCH_POLICIES.includes(hook.matchPolicy)) errs.push(fieldError.notSupported(`${path}.matchPolicy`, hook.matchPolicy, SUPPORTED_MATCH_POLICIES));
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (typeof hook.sideEffects !== 'string') errs.push(fieldError.required(`${path}.sideEffects`, `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects)) errs.push(fieldError.notSupported(`${path}.sideEffects`, hook.sideEffects, allowedSideEffects));
  if (typeof hook.timeoutSeconds === 'number' && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) errs.push(fieldError.invalid(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  if (isObj(hook.namespaceSelector)) errs.push(...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`, opts.allowInvalidLabelValueInSelector));
  if (isObj(hook.objectSelector)) errs.push(...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`, opts.allowInvalidLabelValueInSelector));
  if (mutating && typeof hook.reinvocationPolicy === 'string' && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) errs.push(fieldError.notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  errs.push(...validateClientConfig(`${path}.clientConfig`, hook.clientConfig));
  if (!opts.ignoreMatchConditions) errs.push(...validateMatchConditions(hook.matchConditions, `${path}.matchConditions`));
  return errs;
}

function validateConfiguration(config: WebhookConfiguration, mutating: boolean, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(config.webhooks).forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(strs(hook.admissionReviewVersions), opts.requireRecognizedAdmissionReviewVersion, `${path}.admissionReviewVersions`));
    const name = str(hook.name);
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

/** A selector that strict validation refuses only for its label values (tolerated if stored so). */
function hasInvalidLabelValue(selector: unknown): boolean {
  return isObj(selector) && objs(selector.matchExpressions).some((e) => strs(e.values).some((v) => isValidLabelValue(v).length > 0));
}

/** ValidateXxxWebhookConfigurationUpdate: what the stored object already breaks stays allowed. */
function updateOptions(config: WebhookConfiguration, old: WebhookConfiguration): Options {
  const hooks = objs(config.webhooks);
  const oldHooks = objs(old.webhooks);
  const oldNames = oldHooks.map((h) => str(h.name));
  return {
    ignoreMatchConditions: hooks.length === oldHooks.length && hooks.every((h, i) => JSON.stringify(h.matchConditions ?? []) === JSON.stringify(oldHooks[i]!.matchConditions ?? [])),
    requireNoSideEffects: oldHooks.every((h) => typeof h.sideEffects === 'string' && NO_SIDE_EFFECTS.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
      const versions = strs(h.admissionReviewVersions);
      return versions.length === 0 || versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueWebhookNames: new Set(oldNames).size === oldNames.length,
    allowInvalidLabelValueInSelector: oldHooks.some((h) => hasInvalidLabelValue(h.namespaceSelector) || hasInvalidLabelValue(h.objectSelector)),
  };
}

function webhookConfigurationStrategy(mutating: boolean): ResourceStrategy<WebhookConfiguration> {
  return {
    hasStatus: false,
    // Generation follows `webhooks` (there is no spec): set here rather than by the store.
    tracksGeneration: false,
    prepareForCreate(config) {
      (config.metadata ??= {}).generation = 1;
    },
    prepareForUpdate(config, old) {
      const meta = (config.metadata ??= {});
      const generation = typeof old.metadata?.generation === 'number' ? old.metadata.generation : 0;
      meta.generation = JSON.stringify(config.webhooks ?? []) === JSON.stringify(old.webhooks ?? []) ? generation : generation + 1;
    },
    validate: (config) => validateConfiguration(config, mutating, CREATE_OPTIONS),
    validateUpdate: (config, old) => validateConfiguration(config, mutating, updateOptions(config, old)),
  };
}

const webhooksPrinter: TablePrinter = {
  columns: [nameColumn, column('Webhooks', 'integer', 'The number of webhooks configured.'), ageColumn],
  cells: (o: KubeObject, now) => [fmt.nameCell(o), fmt.arr(o.webhooks).length, fmt.ageCell(o, now)],
};

export const mutatingWebhookConfigurationModule: KindModule = {
  group: 'admissionregistration.k8s.io',
  kind: 'MutatingWebhookConfiguration',
  strategy: webhookConfigurationStrategy(true) as ResourceStrategy,
  printer: webhooksPrinter,
};

export const validatingWebhookConfigurationModule: KindModule = {
  group: 'admissionregistration.k8s.io',
  kind: 'ValidatingWebhookConfiguration',
  strategy: webhookConfigurationStrategy(false) as ResourceStrategy,
  printer: webhooksPrinter,
};
