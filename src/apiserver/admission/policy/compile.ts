// A policy's CEL compiled once per version of the policy (Kubernetes' compilePolicy): its
// variables, matchConditions, validations with their messageExpressions, and audit annotations.
// An expression that does not compile is kept with its error: it fails (per failurePolicy) when it
// is evaluated, as in Kubernetes, instead of making the policy unusable.
import type { ValidatingAdmissionPolicy } from '../../../api/types.js';

/** What the CEL environment answers (machinery/cel's compileExpression / CelProgram.evaluate). */
export interface CelEvalResult {
  value?: unknown;
  error?: string;
  cost: number;
}
export interface CelProgram {
  evaluate(vars: Record<string, unknown>): CelEvalResult;
}
export interface CelCompileResult {
  program?: CelProgram;
  error?: string;
}
/** Compiles one expression with the admission variables declared; `params` and `authorizer` only when the policy has them. */
export type PolicyExpressionCompiler = (expression: string, declared: { params: boolean; authorizer: boolean; variables: readonly string[] }) => CelCompileResult;

export interface CompiledExpression extends CelCompileResult {
  expression: string;
  /** The composited variables the expression names (`variables.<name>`). */
  uses: readonly string[];
}

export interface CompiledPolicy {
  failurePolicy: string;
  variables: ReadonlyArray<{ name: string; compiled: CompiledExpression }>;
  matchConditions: ReadonlyArray<{ name: string; compiled: CompiledExpression }>;
  validations: ReadonlyArray<{ expression: string; message: string; reason?: string; compiled: CompiledExpression; messageExpression?: CompiledExpression }>;
  auditAnnotations: ReadonlyArray<{ key: string; valueExpression: string; compiled: CompiledExpression }>;
}

const VARIABLE_USE = /\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/g;

function usesOf(expression: string, known: ReadonlySet<string>): string[] {
  const uses = new Set<string>();
  for (const m of expression.matchAll(VARIABLE_USE)) if (known.has(m[1]!)) uses.add(m[1]!);
  return [...uses];
}

export function compilePolicy(policy: ValidatingAdmissionPolicy, compile: PolicyExpressionCompiler): CompiledPolicy {
  const spec = policy.spec ?? {};
  const params = spec.paramKind != null;
  const names = (spec.variables ?? []).map((v) => v.name ?? '');
  const known = new Set(names);
  // A variable sees the variables before it; every other expression sees them all. messageExpression
  // has no authorizer, as in Kubernetes.
  const one = (expression: string, visible: readonly string[], authorizer = true): CompiledExpression => {
    const result = compile(expression, { params, authorizer, variables: visible });
    return { expression, ...result, uses: usesOf(expression, known) };
  };
  return {
    failurePolicy: spec.failurePolicy ?? 'Fail',
    variables: (spec.variables ?? []).map((v, i) => ({ name: v.name ?? '', compiled: one(v.expression ?? '', names.slice(0, i)) })),
    matchConditions: (spec.matchConditions ?? []).map((c) => ({ name: c.name ?? '', compiled: one(c.expression ?? '', names) })),
    validations: (spec.validations ?? []).map((v) => ({
      expression: v.expression ?? '',
      message: v.message ?? '',
      reason: v.reason ?? undefined,
      compiled: one(v.expression ?? '', names),
      messageExpression: v.messageExpression ? one(v.messageExpression, names, false) : undefined,
    })),
    auditAnnotations: (spec.auditAnnotations ?? []).map((a) => ({ key: a.key ?? '', valueExpression: a.valueExpression ?? '', compiled: one(a.valueExpression ?? '', names) })),
  };
}
