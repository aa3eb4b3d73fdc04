// Evaluating a compiled policy's expressions for one request and one param (k8s.io/apiserver
// plugin/cel activation and composition): the variables object, oldObject, request, params,
// namespaceObject, authorizer and `variables`, the composited variables evaluated at most once
// each and only when an expression names them; runtime cost charged against one budget.
import type { CelEvalResult, CompiledExpression, CompiledPolicy } from './compile.js';

/** The request's values an expression sees (JSON form; null where Kubernetes has null). */
export interface PolicyInput {
  object: unknown;
  oldObject: unknown;
  request: Record<string, unknown>;
  params: unknown;
  namespaceObject: unknown;
  /** The CEL `authorizer` value (absent: expressions do not see one). */
  authorizer?: unknown;
}

/** The error that stops a set of expressions: the cost budget is spent. */
export class OutOfBudget extends Error {
  constructor() {
    super('validation failed due to running out of cost budget, no further validation rules will be run');
  }
}

export type Outcome = { value: unknown; error?: undefined } | { value?: undefined; error: string };

/** One activation: the input, the composited variables' memo, and the budget left. */
export class Activation {
  private readonly memo = new Map<string, Outcome>();
  private readonly byName: ReadonlyMap<string, CompiledExpression>;

  constructor(
    policy: CompiledPolicy,
    private readonly input: PolicyInput,
    public budget: number,
  ) {
    this.byName = new Map(policy.variables.map((v) => [v.name, v.compiled]));
  }

  /** A program's result; a library that throws is an evaluation error, never a failed request. */
  private run(compiled: CompiledExpression, vars: Record<string, unknown>): CelEvalResult {
    try {
      return compiled.program!.evaluate(vars);
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err), cost: 0 };
    }
  }

  private charge(cost: number): void {
    this.budget -= cost;
    if (this.budget < 0) throw new OutOfBudget();
  }

  /** A composited variable's value, or the error Kubernetes' lazy map gives for it. */
  private variable(name: string): Outcome {
    const done = this.memo.get(name);
    if (done) return done;
    const compiled = this.byName.get(name)!;
    let outcome: Outcome;
    if (compiled.error !== undefined || !compiled.program) {
      outcome = { error: `composited variable ${JSON.stringify(name)} fails to compile: ${compiled.error ?? 'unexpected internal error compiling expression'}` };
    } else {
      const vars = this.vars(compiled, true);
      if ('error' in vars) outcome = { error: `composited variable ${JSON.stringify(name)} fails to evaluate: ${vars.error}` };
      else {
        const r = this.run(compiled, vars.vars);
        this.charge(r.cost);
        outcome = r.error !== undefined ? { error: `composited variable ${JSON.stringify(name)} fails to evaluate: ${r.error}` } : { value: r.value };
      }
    }
    this.memo.set(name, outcome);
    return outcome;
  }

  /** The bindings of one expression, or the error of a variable it names (which is its error in cel-go). */
  private vars(compiled: CompiledExpression, authorizer: boolean): { vars: Record<string, unknown> } | { error: string } {
    const variables: Record<string, unknown> = {};
    for (const name of compiled.uses) {
      const v = this.variable(name);
      if (v.error !== undefined) return { error: v.error };
      variables[name] = v.value;
    }
    const { object, oldObject, request, params, namespaceObject } = this.input;
    const vars: Record<string, unknown> = { object, oldObject, request, params, namespaceObject, variables };
    if (authorizer && this.input.authorizer !== undefined) vars.authorizer = this.input.authorizer;
    return { vars };
  }

  /** Evaluates one expression: its value, or its error worded as Kubernetes' (throws OutOfBudget). */
  evaluate(compiled: CompiledExpression, authorizer = true): Outcome {
    if (compiled.error !== undefined) return { error: `compilation error: ${compiled.error}` };
    if (!compiled.program) return { error: 'unexpected internal error compiling expression' };
    const vars = this.vars(compiled, authorizer);
    if ('error' in vars) return { error: `expression '${compiled.expression}' resulted in error: ${vars.error}` };
    const r = this.run(compiled, vars.vars);
    this.charge(r.cost);
    if (r.error !== undefined) return { error: `expression '${compiled.expression}' resulted in error: ${r.error}` };
    return { value: r.value };
  }
}
