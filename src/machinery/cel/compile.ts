// Whether a CEL expression parses, for the validation of the admission kinds whose fields hold
// CEL (match conditions, ValidatingAdmissionPolicy validations, variables, audit annotations).
// Kubernetes compiles them with cel-go and reports `compilation failed: ERROR: <input>:L:C: ...`
// under the expression's field path; the parser here is @bufbuild/cel's, so the position is the
// same kind but the wording of a syntax error is that parser's. Types are not checked here (see
// index.ts compileExpression for the checked compile with declared variables).
import { parse } from '@bufbuild/cel';

/** cel-go's rendering of a syntax error: `ERROR: <input>:L:C: Syntax error: ...` and a caret line. */
export function formatSyntaxError(expression: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = /<input>:(\d+):(\d+): (.*)$/s.exec(message);
  if (!at) return `ERROR: <input>:1:1: Syntax error: ${message}`;
  const [line, column] = [Number(at[1]), Number(at[2])];
  // cel-go's excerpt: the source line, then a caret under the column.
  const source = expression.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: Syntax error: ${at[3]}\n | ${source}\n | ${'.'.repeat(Math.max(0, column - 1))}^`;
}

/** Kubernetes' detail for an expression that does not compile, or undefined when it parses. */
export function celCompileError(expression: string): string | undefined {
  try {
    parse(expression);
    return undefined;
  } catch (err) {
    return `compilation failed: ${formatSyntaxError(expression, err)}`;
  }
}
