// The CEL environment policies compile in. Until machinery/cel's Kubernetes environment (branch
// `cel`: Kubernetes' libraries, typed values, cost, type checking) is merged, this is
// @bufbuild/cel's standard environment: the same language without the Kubernetes extension
// functions, JSON integers as CEL ints (as Kubernetes' schemas type them), cel-go's wording of a
// missing key, and a runtime cost of one per evaluated expression.
import { celEnv, isCelError, parse, plan } from '@bufbuild/cel';
import type { PolicyExpressionCompiler } from './compile.js';

const env = celEnv();

/** Each input object converted once, however many expressions read it. */
const converted = new WeakMap<object, unknown>();

/** JSON numbers without a fraction become CEL ints (bigint); JSON objects and lists are walked. */
function celValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v !== 'object' || v === null) return v;
  // Only JSON is converted: library values (the authorizer) are not data.
  const proto = Object.getPrototypeOf(v) as unknown;
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return v;
  let out = converted.get(v);
  if (out !== undefined) return out;
  if (Array.isArray(v)) out = v.map(celValue);
  else out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, celValue(x)]));
  converted.set(v, out);
  return out;
}

/** cel-go's text for a key an object does not have. */
const errorText = (message: string) => message.replace(/^field not found: /, 'no such key: ');

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
        const r = run(celValue(vars) as never);
        return isCelError(r) ? { error: errorText(r.message), cost: 1 } : { value: r, cost: 1 };
      },
    },
  };
};
