// A static cost estimate of a parsed expression, in the spirit of cel-go's estimator as
// Kubernetes configures it: each call costs 1, a comprehension costs its body times the most
// elements its range can hold — maxItems/maxProperties from the schema, otherwise as many as
// fit in the largest request (MaxRequestSizeBytes / (minimum element size + 1), as
// apiextensions' maxCardinality). It does not follow cel-go node by node: it tells rules that
// scale with unbounded lists (nested loops) from those that do not.
import type { parse } from '@bufbuild/cel';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';

type Expr = NonNullable<ReturnType<typeof parse>['expr']>;

/** apiserver pkg/apis/cel MaxRequestSizeBytes. */
const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** The smallest JSON an element of this schema serializes to (pkg/cel/common/schemas.go). */
function minSerializedSize(s: JSONSchemaProps | undefined): number {
  switch (s?.type) {
    case 'string': return s.format === 'date-time' ? 21 : s.format === 'duration' ? 3 : 2 + (s.minLength ?? 0);
    case 'integer': case 'number': return 1;
    case 'boolean': return 4;
    case 'array': case 'object': return 2;
  }
  return 1;
}

function cardinality(s: JSONSchemaProps | undefined): number {
  if (s?.type === 'array') {
    if (s.maxItems !== undefined) return s.maxItems;
    const item = Array.isArray(s.items) ? undefined : s.items;
    return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize(item) + 1));
  }
  if (s?.type === 'object') {
    if (s.maxProperties !== undefined) return s.maxProperties;
    return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize(typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined) + 4));
  }
  if (s?.type === 'string') return s.maxLength ?? MAX_REQUEST_SIZE_BYTES;
  return Math.floor(MAX_REQUEST_SIZE_BYTES / 2);
}

/** Schemas of the variables and comprehension variables in scope, for range sizes. */
type Scope = Map<string, JSONSchemaProps | undefined>;

function schemaOf(e: Expr, scope: Scope): JSONSchemaProps | undefined {
  const k = e.exprKind;
  if (k.case === 'identExpr') return scope.get(k.value.name);
  if (k.case === 'selectExpr' && k.value.operand) {
    const s = schemaOf(k.value.operand, scope);
    return s?.properties?.[k.value.field] ?? (typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined);
  }
  if (k.case === 'listExpr') return { type: 'array', maxItems: k.value.elements.length };
  return undefined;
}

/** The estimated maximum cost of `e`. */
export function estimateCost(e: Expr, scope: Scope): number {
  const k = e.exprKind;
  switch (k.case) {
    case 'selectExpr':
      return 1 + (k.value.operand ? estimateCost(k.value.operand, scope) : 0);
    case 'identExpr':
      return 1;
    case 'callExpr':
      return 1 + (k.value.target ? estimateCost(k.value.target, scope) : 0) + k.value.args.reduce((n, a) => n + estimateCost(a, scope), 0);
    case 'listExpr':
      return 10 + k.value.elements.reduce((n, a) => n + estimateCost(a, scope), 0);
    case 'structExpr':
      return 30 + k.value.entries.reduce((n, en) => n + (en.value ? estimateCost(en.value, scope) : 0), 0);
    case 'comprehensionExpr': {
      const c = k.value;
      const range = schemaOf(c.iterRange!, scope);
      const n = cardinality(range);
      const inner: Scope = new Map(scope);
      const item = range?.type === 'array' ? (Array.isArray(range.items) ? undefined : range.items) : { type: 'string' };
      inner.set(c.iterVar, item);
      inner.set(c.accuVar, undefined);
      const body = estimateCost(c.loopCondition!, inner) + estimateCost(c.loopStep!, inner);
      return estimateCost(c.iterRange!, scope) + estimateCost(c.accuInit!, scope) + n * body + estimateCost(c.result!, inner);
    }
  }
  return 0;
}
