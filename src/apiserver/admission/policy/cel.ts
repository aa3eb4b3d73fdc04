// The CEL environment policies compile in: machinery/cel's Kubernetes environment (its libraries,
// cel-go's compile and runtime error texts, the per-call cost limit), with the variables
// Kubernetes declares for a ValidatingAdmissionPolicy — object, oldObject, request,
// namespaceObject and variables always; params when the policy has a paramKind; authorizer except
// in messageExpression. The request's PolicyAuthorizer is handed to the library as its authorizer.
import { AuthorizerValue, compileExpression, type CelAuthorizer, type CelVariableType } from '../../../machinery/cel/index.js';
import { PolicyAuthorizer } from './authorizer.js';
import type { PolicyExpressionCompiler } from './compile.js';

/** The library's synchronous check over the request's authorizer (pending answers are settled by the dispatcher). */
function celAuthorizer(authz: PolicyAuthorizer): CelAuthorizer {
  return {
    check(verb, group, resource, namespace, name, extra) {
      const d = extra?.path !== undefined ? authz.check({ verb, path: extra.path }) : authz.check({ verb, group, resource, subresource: extra?.subresource ?? '', namespace, name });
      return { allowed: d.decision === 'allow', reason: d.reason, ...(d.error !== undefined ? { error: d.error } : {}) };
    },
  };
}

export const celPolicyCompiler: PolicyExpressionCompiler = (expression, declared) => {
  const variables: Record<string, CelVariableType> = { object: 'dyn', oldObject: 'dyn', request: 'dyn', namespaceObject: 'dyn', variables: 'dyn' };
  if (declared.params) variables.params = 'dyn';
  if (declared.authorizer) variables.authorizer = 'dyn';
  const compiled = compileExpression(expression, { variables });
  const program = compiled.program;
  if (!program) return { error: compiled.error };
  return {
    program: {
      evaluate(vars) {
        const authz = vars.authorizer;
        const bindings = authz instanceof PolicyAuthorizer ? { ...vars, authorizer: new AuthorizerValue(celAuthorizer(authz)) } : vars;
        const r = program.evaluate(bindings);
        return { value: r.value, error: r.error, cost: r.cost };
      },
    },
  };
};
