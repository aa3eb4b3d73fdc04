// One policy for one binding and one param (k8s.io/apiserver policy/validating validator.go):
// matchConditions first (a false one skips the policy; an error fails per failurePolicy), then
// every validation (not true: a deny with its messageExpression's, message's or the expression's
// text; an error: a deny under Fail, nothing under Ignore), then the audit annotations.
import { Activation, OutOfBudget, type PolicyInput } from './evaluation.js';
import type { CompiledPolicy } from './compile.js';

/** celconfig.RuntimeCELCostBudget and RuntimeCELCostBudgetMatchConditions. */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;
/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

export interface PolicyDecision {
  action: 'admit' | 'deny';
  evaluation: 'admit' | 'deny' | 'error';
  message: string;
  /** The status reason of a deny ('' for errors: the dispatcher's default, Invalid). */
  reason: string;
}

export interface AuditAnnotationResult {
  key: string;
  action: 'publish' | 'exclude' | 'error';
  value?: string;
  error?: string;
}

export interface ValidateResult {
  decisions: PolicyDecision[];
  auditAnnotations: AuditAnnotationResult[];
}

const errorDecision = (failurePolicy: string, message: string): PolicyDecision => ({ action: failurePolicy === 'Ignore' ? 'admit' : 'deny', evaluation: 'error', message, reason: '' });

/** utilerrors.NewAggregate's text: one error as itself, several in brackets. */
const aggregate = (errs: readonly string[]) => (errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);

/** undefined: the policy applies; else the result to return (no decisions, or the error's). */
function matchConditions(policy: CompiledPolicy, input: PolicyInput): ValidateResult | undefined {
  if (policy.matchConditions.length === 0) return undefined;
  const activation = new Activation(policy, input, RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS);
  const errors: string[] = [];
  try {
    for (const condition of policy.matchConditions) {
      const r = activation.evaluate(condition.compiled);
      if (r.error !== undefined) errors.push(r.error);
      else if (r.value === false) return { decisions: [], auditAnnotations: [] };
    }
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    errors.splice(0, errors.length, err.message);
  }
  if (errors.length === 0) return undefined;
  if (policy.failurePolicy === 'Ignore') return { decisions: [], auditAnnotations: [] };
  return { decisions: [errorDecision(policy.failurePolicy, aggregate(errors))], auditAnnotations: [] };
}

/** The message of a failed validation (messageExpression's if it gives a usable one). */
function messageOf(v: CompiledPolicy['validations'][number], messageResult: { value?: unknown } | undefined): string {
  let message = '';
  if (messageResult && typeof messageResult.value === 'string') {
    message = messageResult.value.trim();
    if (Buffer.byteLength(message) > MAX_MESSAGE_EXPRESSION_BYTES || message.includes('\n')) message = '';
  }
  if (message === '' && v.message.length > 0) message = v.message.trim();
  if (message === '') message = `failed expression: ${v.expression.trim()}`;
  return message;
}

function validations(policy: CompiledPolicy, input: PolicyInput): PolicyDecision[] | PolicyDecision {
  const activation = new Activation(policy, input, RUNTIME_CEL_COST_BUDGET);
  let results;
  try {
    results = policy.validations.map((v) => activation.evaluate(v.compiled));
  } catch (err) {
    if (err instanceof OutOfBudget) return errorDecision(policy.failurePolicy, err.message);
    throw err;
  }
  // messageExpressions run after every validation, on what is left of the budget, without the authorizer.
  let messages: Array<{ value?: unknown } | undefined> = [];
  let messageBudgetError: string | undefined;
  try {
    messages = policy.validations.map((v) => (v.messageExpression ? activation.evaluate(v.messageExpression, false) : undefined));
  } catch (err) {
    if (!(err instanceof OutOfBudget)) throw err;
    messageBudgetError = `failed messageExpression: ${err.message}`;
  }
  return policy.validations.map((v, i): PolicyDecision => {
    const r = results[i]!;
    if (r.error !== undefined) return errorDecision(policy.failurePolicy, r.error);
    if (messageBudgetError !== undefined) return errorDecision(policy.failurePolicy, messageBudgetError);
    if (r.value === true) return { action: 'admit', evaluation: 'admit', message: '', reason: '' };
    return { action: 'deny', evaluation: 'deny', message: messageOf(v, messages[i]), reason: v.reason ?? 'Invalid' };
  });
}

/** CEL's name of a value's type, for the unsupported-return-type error. */
function celTypeName(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Uint8Array) return 'bytes';
  return typeof v === 'object' ? 'map' : typeof v;
}

function auditAnnotations(policy: CompiledPolicy, input: PolicyInput): AuditAnnotationResult[] | PolicyDecision {
  const activation = new Activation(policy, input, RUNTIME_CEL_COST_BUDGET);
  const out: AuditAnnotationResult[] = [];
  try {
    for (const a of policy.auditAnnotations) {
      const r = activation.evaluate(a.compiled);
      if (r.error !== undefined) out.push({ key: a.key, action: policy.failurePolicy === 'Ignore' ? 'exclude' : 'error', error: r.error });
      else if (r.value === null || r.value === undefined) out.push({ key: a.key, action: 'exclude' });
      else if (typeof r.value === 'string') {
        const value = r.value.trim();
        out.push(value === '' ? { key: a.key, action: 'exclude' } : { key: a.key, action: 'publish', value });
      } else {
        out.push({ key: a.key, action: 'error', error: `valueExpression '${a.valueExpression}' resulted in unsupported return type: ${celTypeName(r.value)}. Return type must be either string or null.` });
      }
    }
  } catch (err) {
    if (err instanceof OutOfBudget) return errorDecision(policy.failurePolicy, err.message);
    throw err;
  }
  return out;
}

export function validate(policy: CompiledPolicy, input: PolicyInput): ValidateResult {
  const skipped = matchConditions(policy, input);
  if (skipped) return skipped;
  const decisions = validations(policy, input);
  if (!Array.isArray(decisions)) return { decisions: [decisions], auditAnnotations: [] };
  const annotations = auditAnnotations(policy, input);
  if (!Array.isArray(annotations)) return { decisions: [annotations], auditAnnotations: [] };
  return { decisions, auditAnnotations: annotations };
}
