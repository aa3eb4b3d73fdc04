// Compile and evaluate CEL expressions in Kubernetes' environment: parse with @bufbuild/cel,
// check (check.ts) so compile errors read as cel-go's, plan once, and evaluate with a runtime
// cost budget. Cost is counted per function call (plus cel-go's size-proportional costs of the
// string, regex, list and set functions), not per node as cel-go does: field selections, index,
// and logical operators are free here, so actual costs are lower than cel-go's for the same
// expression; the budget's exceeded message is Kubernetes'.
import { isCelError, parse, plan } from '@bufbuild/cel';
import { ACTUAL_COST_EXCEEDED, costMeter, k8sEnv } from './env.js';
import { Checker, type CelVariableType } from './check.js';
import { fromCelValue, toCelValue } from './values.js';
import { formatSyntaxError } from './compile.js';
import { estimateCost } from './cost.js';
import { rewriteTwoVar } from './two-var.js';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';

export type { CelVariableType } from './check.js';

/** apiserver pkg/apis/cel PerCallLimit. */
export const PER_CALL_LIMIT = 1000000;

export interface CelCompileResult {
  program?: CelProgram;
  /** Kubernetes' text, e.g. "compilation failed: ERROR: <input>:1:6: undeclared reference to 'foo' (in container '')\n | ..." */
  error?: string;
  /** The checked output type where known ('dyn' otherwise). */
  outputType?: string;
  /** The static cost estimate (cost.ts), compared with StaticEstimatedCostLimit by CRD validation. */
  estimatedCost?: number;
  /** The declared variables the expression refers to. */
  usedVariables?: string[];
}
export interface CelProgram {
  /** Variables are JSON (converted by their declared schema) or CEL values. */
  evaluate(vars: Record<string, unknown>, opts?: { costLimit?: number }): CelEvalResult;
}
export interface CelEvalResult {
  /** The result as JSON (ints as numbers); `celValue` keeps the CEL value. */
  value?: unknown;
  celValue?: unknown;
  error?: string;
  cost: number;
}

export interface CompileOptions {
  variables: Record<string, CelVariableType>;
  perCallLimit?: number;
  /** Wanted output type: a different known type fails as Kubernetes words it. */
  expect?: { type: 'bool' | 'string'; message: string };
  /** Prefix of compile errors (Kubernetes: "compilation failed: "). */
  errorPrefix?: string;
}

/** cel-go's rendering of one issue: `ERROR: <input>:L:C: msg` and the source line with a caret. */
export function formatIssue(expression: string, offset: number, message: string): string {
  // @bufbuild/cel records some operators at the blank before them; cel-go points at the operator.
  while (offset < expression.length && /\s/.test(expression[offset]!)) offset++;
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const column = offset - lineStart + 1;
  const source = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${message}\n | ${source}\n | ${'.'.repeat(column - 1)}^`;
}

/** cel-go's wording of runtime errors that @bufbuild/cel words its own way. */
function k8sRuntimeError(message: string): string {
  const noKey = /^field not found: (.*)$/.exec(message);
  if (noKey) return `no such key: ${noKey[1]}`;
  const oob = /^index (-?\d+) out of bounds \[0, (-?\d+)\)$/.exec(message);
  if (oob) return `index out of bounds: ${oob[1]}`;
  if (message.startsWith('int overflow')) return 'integer overflow';
  if (message.startsWith('uint overflow')) return 'unsigned integer overflow';
  if (message === 'int divide by zero' || message === 'uint divide by zero') return 'division by zero';
  if (message === 'int modulus by zero' || message === 'uint modulus by zero') return 'modulus by zero';
  // cel-go's dispatcher reports a call no overload takes as "no such overload" (CRD rules
  // recognise the prefix); @bufbuild/cel says "found no matching overload for ...".
  if (message.startsWith('unbound function: ') || message.startsWith('found no matching overload')) return 'no such overload';
  return message;
}

/** Compiles `expression` with declared variables (name → CEL type or schema). */
export function compileExpression(expression: string, opts: CompileOptions): CelCompileResult {
  const prefix = opts.errorPrefix ?? 'compilation failed: ';
  let parsed;
  try {
    parsed = parse(expression);
  } catch (err) {
    return { error: prefix + formatSyntaxError(expression, err) };
  }
  parsed = { ...parsed, expr: rewriteTwoVar(parsed.expr!) } as typeof parsed;
  const positions: Record<string, number> = {};
  for (const [id, off] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = off;
  const checker = new Checker(opts.variables, positions);
  const out = checker.check(parsed.expr!);
  if (checker.issues.length > 0) return { error: prefix + checker.issues.map((i) => formatIssue(expression, i.offset, i.message)).join('\n') };
  if (opts.expect && out.name !== 'dyn' && out.name !== opts.expect.type) return { error: opts.expect.message, outputType: out.name };
  const schemas: Record<string, JSONSchemaProps | undefined> = {};
  for (const [name, type] of Object.entries(opts.variables)) schemas[name] = typeof type === 'object' ? type.schema : undefined;
  const estimatedCost = estimateCost(parsed.expr!, new Map(Object.entries(schemas)));
  const run = plan(k8sEnv, parsed);
  const limit = opts.perCallLimit ?? PER_CALL_LIMIT;
  const program: CelProgram = {
    evaluate(vars, evalOpts) {
      const bindings: Record<string, unknown> = {};
      for (const [name, v] of Object.entries(vars)) bindings[name] = toCelValue(v, schemas[name]);
      const saved = { ...costMeter };
      costMeter.cost = 0;
      costMeter.limit = evalOpts?.costLimit ?? limit;
      try {
        const r = run(bindings as never);
        const cost = costMeter.cost;
        if (isCelError(r)) return { error: r.message === ACTUAL_COST_EXCEEDED ? r.message : k8sRuntimeError(r.message), cost };
        return { value: fromCelValue(r), celValue: r, cost };
      } finally {
        costMeter.cost = saved.cost;
        costMeter.limit = saved.limit;
      }
    },
  };
  return { program, outputType: out.name, estimatedCost, usedVariables: [...checker.used] };
}

export { toCelValue, fromCelValue } from './values.js';
/** `authorizer` is an AuthorizerValue; ValidatingAdmissionPolicy's `authorizer.requestResource` (declared under that dotted name) a ResourceCheck of the request. */
export { AuthorizerValue, ResourceCheck, type CelAuthorizer, type AuthorizationDecision } from './library/authz.js';
export { Optional } from './library/optional.js';
