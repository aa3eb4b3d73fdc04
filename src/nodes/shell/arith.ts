// $((...)): integer arithmetic as POSIX sh has it (no assignments): numbers (decimal, 0x hex, 0
// octal), variables by name, unary + - ! ~, * / %, + -, << >>, comparisons, == !=, & ^ |, && ||,
// ?:, parentheses.

export class ArithmeticError extends Error {}

const BINARY: Array<{ ops: string[]; apply: (a: bigint, b: bigint, op: string) => bigint }> = [
  { ops: ['||'], apply: (a, b) => (a !== 0n || b !== 0n ? 1n : 0n) },
  { ops: ['&&'], apply: (a, b) => (a !== 0n && b !== 0n ? 1n : 0n) },
  { ops: ['|'], apply: (a, b) => a | b },
  { ops: ['^'], apply: (a, b) => a ^ b },
  { ops: ['&'], apply: (a, b) => a & b },
  { ops: ['==', '!='], apply: (a, b, op) => ((op === '==') === (a === b) ? 1n : 0n) },
  {
    ops: ['<=', '>=', '<', '>'],
    apply: (a, b, op) => ((op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b) ? 1n : 0n),
  },
  { ops: ['<<', '>>'], apply: (a, b, op) => (op === '<<' ? a << b : a >> b) },
  { ops: ['+', '-'], apply: (a, b, op) => (op === '+' ? a + b : a - b) },
  {
    ops: ['*', '/', '%'],
    apply: (a, b, op) => {
      if (op === '*') return a * b;
      if (b === 0n) throw new ArithmeticError('divide by zero');
      return op === '/' ? a / b : a % b;
    },
  },
];
const TOKEN = /\s*(0[xX][0-9a-fA-F]+|\d+|[A-Za-z_][A-Za-z0-9_]*|\|\||&&|==|!=|<=|>=|<<|>>|[-+*/%()!~<>&|^?:])/y;
const INT64 = (v: bigint): bigint => BigInt.asIntN(64, v);

export function evaluateArithmetic(expr: string, lookup: (name: string) => string | undefined): string {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < expr.length) {
    if (/^\s*$/.test(expr.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(expr);
    if (!m) throw new ArithmeticError(`arithmetic syntax error`);
    tokens.push(m[1]!);
    pos = TOKEN.lastIndex;
  }
  let i = 0;
  const peek = (): string | undefined => tokens[i];
  const variable = (name: string, depth: number): bigint => {
    const v = (lookup(name) ?? '').trim();
    if (v === '') return 0n;
    if (depth > 10) throw new ArithmeticError('expression recursion loop detected');
    return number(v) ?? (/^[A-Za-z_]\w*$/.test(v) ? variable(v, depth + 1) : fail());
  };
  const fail = (): never => {
    throw new ArithmeticError('arithmetic syntax error');
  };
  const primary = (): bigint => {
    const t = tokens[i++];
    if (t === undefined) return fail();
    if (t === '(') {
      const v = ternary();
      if (tokens[i++] !== ')') fail();
      return v;
    }
    if (t === '-') return INT64(-primary());
    if (t === '+') return primary();
    if (t === '!') return primary() === 0n ? 1n : 0n;
    if (t === '~') return ~primary();
    const n = number(t);
    if (n !== undefined) return n;
    if (/^[A-Za-z_]/.test(t)) return variable(t, 0);
    return fail();
  };
  const binary = (level: number): bigint => {
    if (level >= BINARY.length) return primary();
    let left = binary(level + 1);
    for (;;) {
      const op = peek();
      if (op === undefined || !BINARY[level]!.ops.includes(op)) return left;
      i++;
      left = INT64(BINARY[level]!.apply(left, binary(level + 1), op));
    }
  };
  const ternary = (): bigint => {
    const cond = binary(0);
    if (peek() !== '?') return cond;
    i++;
    const a = ternary();
    if (tokens[i++] !== ':') fail();
    const b = ternary();
    return cond !== 0n ? a : b;
  };
  if (tokens.length === 0) return '0';
  const result = ternary();
  if (i !== tokens.length) fail();
  return result.toString();
}

function number(t: string): bigint | undefined {
  if (/^0[xX][0-9a-fA-F]+$/.test(t)) return INT64(BigInt(t));
  if (/^0[0-7]+$/.test(t)) return INT64(BigInt(`0o${t.slice(1)}`));
  if (/^\d+$/.test(t)) return INT64(BigInt(t));
  return undefined;
}
