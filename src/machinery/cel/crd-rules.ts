// CRD validation rules (x-kubernetes-validations): their checks when a CRD is written
// (apiextensions validation.go) and their evaluation on every write of a custom resource
// (apiextensions pkg/apiserver/schema/cel/validation.go), with Kubernetes' paths and messages.
import type { JSONSchemaProps, ValidationRule } from '../../api/apiextensions/json-schema.js';
import { fieldError, type FieldError } from '../validation/field-errors.js';
import { compileExpression, Optional, PER_CALL_LIMIT, toCelValue, type CelProgram } from './index.js';
import { ACTUAL_COST_EXCEEDED } from './env.js';

/** apiextensions validation StaticEstimatedCostLimit. */
export const STATIC_ESTIMATED_COST_LIMIT = 10000000;
/** apiserver pkg/apis/cel RuntimeCELCostBudget (per object). */
export const RUNTIME_CEL_COST_BUDGET = 10000000;
/** apiserver pkg/apis/cel MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;
const SUPPORTED_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

const child = (p: string, k: string) => (p ? `${p}.${k}` : k);
const key = (p: string, k: string) => `${p}[${k}]`;

/** The schema `self` has at a resource's root: apiVersion, kind and metadata.name/generateName are declared. */
function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  return {
    ...s,
    properties: {
      ...s.properties,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

function items(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return s.items && !Array.isArray(s.items) ? s.items : undefined;
}

interface CompiledRule {
  rule: ValidationRule;
  program?: CelProgram;
  error?: string;
  messageProgram?: CelProgram;
  messageError?: string;
  usesOldSelf: boolean;
  estimatedCost: number;
  fieldPath?: string;
}

function compileRule(rule: ValidationRule, schema: JSONSchemaProps): CompiledRule {
  // With optionalOldSelf, oldSelf is optional.of(the old value) or optional.none().
  const variables = { self: { schema }, oldSelf: rule.optionalOldSelf ? ('dyn' as const) : { schema } };
  const out: CompiledRule = { rule, usesOldSelf: false, estimatedCost: 0 };
  if (rule.rule.trim() === '') return out;
  const c = compileExpression(rule.rule, { variables, expect: { type: 'bool', message: 'cel expression must evaluate to a bool' } });
  if (c.error) {
    out.error = c.error;
    return out;
  }
  out.program = c.program;
  out.usesOldSelf = c.usedVariables!.includes('oldSelf');
  out.estimatedCost = c.estimatedCost ?? 0;
  if (rule.messageExpression) {
    const m = compileExpression(rule.messageExpression, { variables, errorPrefix: 'messageExpression compilation failed: ', expect: { type: 'string', message: 'messageExpression must evaluate to a string' } });
    if (m.error) out.messageError = m.error;
    else out.messageProgram = m.program;
  }
  if (rule.fieldPath) out.fieldPath = normalizeFieldPath(rule.fieldPath, schema);
  return out;
}

/**
 * A rule's fieldPath as a relative field path (`.spec.x`, `['a.b']`, `[0]` not allowed: list
 * items have no field path of their own), checked against the schema; undefined if invalid.
 */
export function normalizeFieldPath(path: string, schema: JSONSchemaProps): string | undefined {
  let s: JSONSchemaProps | undefined = schema;
  let out = '';
  const re = /\.([A-Za-z_$][\w$-]*)|\['((?:[^'\\]|\\.)*)'\]/y;
  let at = 0;
  while (at < path.length) {
    re.lastIndex = at;
    const m = re.exec(path);
    if (!m) return undefined;
    at = re.lastIndex;
    const name = m[1] ?? m[2]!.replace(/\\(.)/g, '$1');
    if (!s) return undefined;
    if (s.properties?.[name]) {
      s = s.properties[name];
      out = m[1] !== undefined ? child(out, name) : key(out, name);
    } else if (typeof s.additionalProperties === 'object') {
      s = s.additionalProperties;
      out = key(out, name);
    } else return undefined;
  }
  return out === '' ? undefined : out;
}

/** Go's %#v of an apiextensions.ValidationRule (the bad value of rule compile errors). */
function goRule(r: ValidationRule): string {
  const ptr = (t: string, v: unknown) => (v === undefined ? `(*${t})(nil)` : `(*${t})(${JSON.stringify(v)})`);
  return `apiextensions.ValidationRule{Rule:${JSON.stringify(r.rule)}, Message:${JSON.stringify(r.message ?? '')}, MessageExpression:${JSON.stringify(r.messageExpression ?? '')}, Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason)}, FieldPath:${JSON.stringify(r.fieldPath ?? '')}, OptionalOldSelf:${ptr('bool', r.optionalOldSelf)}}`;
}

function costErrorMessage(name: string, cost: number, limit: number): string {
  const f = cost / limit;
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
  return `${name} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** Errors of every x-kubernetes-validations rule in a CRD version's schema, under `path`. */
export function validateSchemaRules(schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  walkSchema(schema, path, true, undefined, errs);
  return errs;
}

function walkSchema(s: JSONSchemaProps, path: string, root: boolean, uncorrelatable: string | undefined, errs: FieldError[]): void {
  const rules = s['x-kubernetes-validations'] ?? [];
  const schemaErrs: FieldError[] = [];
  rules.forEach((r, i) => {
    const p = key(child(path, 'x-kubernetes-validations'), String(i));
    const rule = r.rule.trim();
    const msg = (r.message ?? '').trim();
    if (rule === '') schemaErrs.push(fieldError.required(child(p, 'rule'), 'rule is not specified'));
    else if ((r.message ?? '').length > 0 && msg === '') schemaErrs.push(fieldError.invalid(child(p, 'message'), r.message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(msg)) schemaErrs.push(fieldError.invalid(child(p, 'message'), r.message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(rule) && msg === '') schemaErrs.push(fieldError.required(child(p, 'message'), 'message must be specified if rule contains line breaks'));
    if ((r.messageExpression ?? '').length > 0 && r.messageExpression!.trim() === '') schemaErrs.push(fieldError.required(child(p, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    if (r.reason !== undefined && !SUPPORTED_REASONS.includes(r.reason)) schemaErrs.push(fieldError.notSupported(child(p, 'reason'), r.reason, SUPPORTED_REASONS));
    if (r.fieldPath !== undefined) {
      if (r.fieldPath.length > 0 && r.fieldPath.trim() === '') schemaErrs.push(fieldError.invalid(child(p, 'fieldPath'), r.fieldPath, 'fieldPath must be non-empty if specified'));
      if (/[\n\r]/.test(r.fieldPath)) schemaErrs.push(fieldError.invalid(child(p, 'fieldPath'), r.fieldPath, 'fieldPath must not contain line breaks'));
      if (r.fieldPath.length > 0 && normalizeFieldPath(r.fieldPath.trim(), s) === undefined) schemaErrs.push(fieldError.invalid(child(p, 'fieldPath'), r.fieldPath, 'fieldPath must be a valid path'));
    }
  });
  errs.push(...schemaErrs);
  if (schemaErrs.length === 0 && rules.length > 0) {
    const self = root ? withTypeAndObjectMeta(s) : s;
    rules.forEach((r, i) => {
      const p = key(child(path, 'x-kubernetes-validations'), String(i));
      const c = compileRule(r, self);
      if (c.estimatedCost > STATIC_ESTIMATED_COST_LIMIT) errs.push(fieldError.forbidden(child(p, 'rule'), costErrorMessage('estimated rule cost', c.estimatedCost, STATIC_ESTIMATED_COST_LIMIT)));
      if (c.error) errs.push(fieldError.invalidRaw(child(p, 'rule'), goRule(r), c.error));
      if (c.messageError) errs.push(fieldError.invalidRaw(child(p, 'messageExpression'), goRule(r), c.messageError));
      if (c.usesOldSelf) {
        if (uncorrelatable !== undefined) errs.push(fieldError.invalid(child(p, 'rule'), r.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
      } else if (r.optionalOldSelf !== undefined && !c.error) {
        errs.push(fieldError.invalid(child(p, 'optionalOldSelf'), r.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
      }
    });
  }
  for (const [name, prop] of Object.entries(s.properties ?? {})) walkSchema(prop, key(child(path, 'properties'), name), false, uncorrelatable, errs);
  if (typeof s.additionalProperties === 'object') walkSchema(s.additionalProperties, child(path, 'additionalProperties'), false, uncorrelatable, errs);
  const it = items(s);
  if (it) {
    // Only map lists correlate old items with new ones (by their keys); below any other list
    // oldSelf has nothing to compare with.
    const correlates = s['x-kubernetes-list-type'] === 'map';
    walkSchema(it, child(path, 'items'), false, uncorrelatable ?? (correlates ? undefined : path), errs);
  }
}

interface NodeValidator {
  schema: JSONSchemaProps;
  rules: CompiledRule[];
  properties?: Record<string, NodeValidator>;
  additional?: NodeValidator;
  items?: NodeValidator;
}

function hasRules(s: JSONSchemaProps | undefined): boolean {
  if (!s) return false;
  if ((s['x-kubernetes-validations'] ?? []).length > 0) return true;
  if (Object.values(s.properties ?? {}).some(hasRules)) return true;
  return hasRules(typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined) || hasRules(items(s));
}

function buildValidator(s: JSONSchemaProps, root: boolean): NodeValidator | undefined {
  if (!hasRules(s)) return undefined;
  const self = root ? withTypeAndObjectMeta(s) : s;
  const v: NodeValidator = { schema: self, rules: (s['x-kubernetes-validations'] ?? []).map((r) => compileRule(r, self)) };
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const sub = buildValidator(prop, false);
    if (sub) (v.properties ??= {})[name] = sub;
  }
  if (typeof s.additionalProperties === 'object') v.additional = buildValidator(s.additionalProperties, false);
  const it = items(s);
  if (it) v.items = buildValidator(it, false);
  return v;
}

/** Go's %v of the schema type that is the bad value of rule failures ("object", "string", ...). */
const typeName = (s: JSONSchemaProps) => s.type ?? '';

function errorForReason(path: string, s: JSONSchemaProps, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden': return fieldError.forbidden(path, detail);
    case 'FieldValueRequired': return fieldError.required(path, detail);
    case 'FieldValueDuplicate': return fieldError.duplicate(path, typeName(s));
  }
  return fieldError.invalid(path, typeName(s), detail);
}

const ruleErrorString = (r: ValidationRule) => ((r.message ?? '').length > 0 ? r.message!.trim() : r.rule.trim());
const ruleMessageOrDefault = (r: ValidationRule) => ((r.message ?? '').length === 0 ? `failed rule: ${ruleErrorString(r)}` : r.message!.trim());

class Budget {
  constructor(public remaining: number) {}
}

function runRules(v: NodeValidator, path: string, obj: unknown, old: unknown, budget: Budget, errs: FieldError[]): void {
  const s = v.schema;
  for (const c of v.rules) {
    if (c.error) {
      errs.push(fieldError.invalid(path, typeName(s), `rule compile error: ${c.error}`));
      continue;
    }
    if (!c.program) continue;
    if (c.usesOldSelf && old === undefined && !c.rule.optionalOldSelf) continue;
    if (budget.remaining <= 0) {
      errs.push(fieldError.invalid(path, typeName(s), 'validation failed due to running out of cost budget, no further validation rules will be run'));
      budget.remaining = -1;
      return;
    }
    const vars: Record<string, unknown> = { self: obj };
    if (c.rule.optionalOldSelf) vars.oldSelf = old === undefined ? Optional.NONE : Optional.of(toCelValue(old, s));
    else if (old !== undefined) vars.oldSelf = old;
    const r = c.program.evaluate(vars);
    if (r.cost > budget.remaining) {
      errs.push(fieldError.invalid(path, typeName(s), 'validation failed due to running out of cost budget, no further validation rules will be run'));
      budget.remaining = -1;
      return;
    }
    budget.remaining -= r.cost;
    if (r.error !== undefined) {
      if (r.error.startsWith('no such overload')) errs.push(fieldError.invalid(path, typeName(s), `'${r.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(c.rule)}`));
      else if (r.error.startsWith('operation cancelled: actual cost limit exceeded')) {
        errs.push(fieldError.invalid(path, typeName(s), `'${r.error}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(c.rule)}`));
        budget.remaining = -1;
        return;
      } else errs.push(fieldError.invalid(path, typeName(s), `${r.error} evaluating rule: ${ruleErrorString(c.rule)}`));
      continue;
    }
    if (r.value === true) continue;
    const at = c.fieldPath ? (c.fieldPath.startsWith('[') ? path + c.fieldPath : child(path, c.fieldPath)) : path;
    let message = ruleMessageOrDefault(c.rule);
    if (c.messageProgram) {
      const m = c.messageProgram.evaluate(vars, { costLimit: PER_CALL_LIMIT });
      if (m.cost > budget.remaining) {
        errs.push(fieldError.invalid(at, typeName(s), 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run'));
        budget.remaining = -1;
        return;
      }
      if (m.error?.startsWith(ACTUAL_COST_EXCEEDED)) {
        errs.push(fieldError.invalid(at, typeName(s), `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(c.rule.messageExpression)}`));
        budget.remaining = -1;
        return;
      }
      budget.remaining -= m.cost;
      // Kubernetes falls back to the rule's message when the expression fails, is not a
      // string, or gives an empty, multi-line or over-long text.
      const text = typeof m.value === 'string' ? m.value.trim() : '';
      if (m.error === undefined && text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES) message = text;
    }
    errs.push(errorForReason(at, s, message, c.rule.reason));
  }
}

/** The old item of a map list that correlates with `item` (same values of every key). */
function correlatedItem(s: JSONSchemaProps, old: unknown, item: unknown): unknown {
  if (s['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old) || typeof item !== 'object' || item === null) return undefined;
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  return old.find((o) => typeof o === 'object' && o !== null && keys.every((k) => (o as Record<string, unknown>)[k] === (item as Record<string, unknown>)[k]));
}

function validateNode(v: NodeValidator, path: string, obj: unknown, old: unknown, budget: Budget, errs: FieldError[]): void {
  if (obj === null || obj === undefined || budget.remaining < 0) return;
  runRules(v, path, obj, old ?? undefined, budget, errs);
  if (budget.remaining < 0) return;
  if (Array.isArray(obj)) {
    if (!v.items) return;
    for (let i = 0; i < obj.length && budget.remaining >= 0; i++) validateNode(v.items, `${path}[${i}]`, obj[i], correlatedItem(v.schema, old, obj[i]), budget, errs);
    return;
  }
  if (typeof obj === 'object') {
    const oldMap = typeof old === 'object' && old !== null && !Array.isArray(old) ? (old as Record<string, unknown>) : undefined;
    const correlatable = v.schema['x-kubernetes-map-type'] === undefined || v.schema['x-kubernetes-map-type'] === 'granular' || v.schema['x-kubernetes-map-type'] === 'atomic';
    for (const [k, x] of Object.entries(obj as Record<string, unknown>)) {
      if (budget.remaining < 0) return;
      const oldX = correlatable ? oldMap?.[k] : undefined;
      if (v.additional) validateNode(v.additional, key(path, k), x, oldX, budget, errs);
      const sub = v.properties?.[k];
      if (sub) validateNode(sub, child(path, k), x, oldX, budget, errs);
    }
  }
}

/** A reusable validator for one schema (compiled once): every rule on `obj`, transition rules with `old`. */
export function compileSchemaRules(schema: JSONSchemaProps): (obj: unknown, old: unknown | undefined) => FieldError[] {
  const v = buildValidator(schema, true);
  return (obj, old) => {
    if (!v) return [];
    const errs: FieldError[] = [];
    validateNode(v, '', obj, old, new Budget(RUNTIME_CEL_COST_BUDGET), errs);
    return errs;
  };
}
