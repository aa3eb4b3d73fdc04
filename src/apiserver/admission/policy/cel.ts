// The CEL environment policies compile in. Until machinery/cel's Kubernetes environment (branch
// `cel`: Kubernetes' libraries, cost, type checking) is merged, this is @bufbuild/cel's standard
// environment: the same language, without the Kubernetes extension functions; a runtime cost of
// one per evaluated expression.
import { celEnv, isCelError, parse, plan } from '@bufbuild/cel';
import type { PolicyExpressionCompiler } from './compile.js';

const env = celEnv();

export const celPolicyCompiler: PolicyExpressionCompiler = (expression) => {
  let run;
  try {
    run = plan(env, parse(expression));
  } catch (err) {
    return { error: `compilation failed: ${(err as Error).message}` };
  }
  return {
    program: {
      evaluate(vars) {
        const r = run(vars as never);
        return isCelError(r) ? { error: r.message, cost: 1 } : { value: r, cost: 1 };
      },
    },
  };
};
