// The JSONPath subset custom resources use to name their fields (printer columns, selectable
// fields, the scale subresource's paths): `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[*]`, `.*` and
// filters `[?(@.type=="Ready")]` (==, !=, <, <=, >, >= against a string, number, boolean or
// another @-path; `[?(@.x)]` for presence), as Kubernetes' client-go jsonpath evaluates them.
// A path is parsed once and kept; a path it cannot parse finds nothing.

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; left: Step[]; op?: string; right?: Step[] | { literal: unknown } };

const parsed = new Map<string, Step[] | null>();

/** Every value `path` selects in `value`, in document order. */
export function findAll(value: unknown, path: string): unknown[] {
  let steps = parsed.get(path);
  if (steps === undefined) {
    steps = parsePath(path);
    if (parsed.size > 4096) parsed.clear();
    parsed.set(path, steps);
  }
  if (steps === null) return [];
  return walk([value], steps);
}

/** The first value `path` selects, or undefined. */
export function findFirst(value: unknown, path: string): unknown {
  return findAll(value, path)[0];
}

function walk(values: unknown[], steps: readonly Step[]): unknown[] {
  let current = values;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) apply(v, step, next);
    current = next;
  }
  return current;
}

function apply(v: unknown, step: Step, out: unknown[]): void {
  switch (step.kind) {
    case 'field':
      if (isObject(v) && Object.prototype.hasOwnProperty.call(v, step.name)) out.push(v[step.name]);
      return;
    case 'index':
      if (Array.isArray(v)) {
        const i = step.index < 0 ? v.length + step.index : step.index;
        if (i >= 0 && i < v.length) out.push(v[i]);
      }
      return;
    case 'all':
      if (Array.isArray(v)) out.push(...v);
      else if (isObject(v)) for (const k of Object.keys(v).sort()) out.push(v[k]);
      return;
    case 'filter': {
      const items = Array.isArray(v) ? v : isObject(v) ? Object.keys(v).sort().map((k) => v[k]) : [];
      for (const item of items) if (matches(item, step)) out.push(item);
    }
  }
}

function matches(item: unknown, f: Extract<Step, { kind: 'filter' }>): boolean {
  const left = walk([item], f.left);
  if (f.op === undefined) return left.length > 0;
  const right = Array.isArray(f.right) ? walk([item], f.right) : [(f.right as { literal: unknown }).literal];
  if (left.length === 0 || right.length === 0) return false;
  return compare(left[0], f.op, right[0]);
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
  }
  if (typeof a === 'number' && typeof b === 'number') {
    if (op === '<') return a < b;
    if (op === '<=') return a <= b;
    if (op === '>') return a > b;
    if (op === '>=') return a >= b;
  }
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The steps of a path (`{...}` braces and a leading `$` allowed), or null when it is not one this subset reads. */
export function parsePath(path: string): Step[] | null {
  let p = path.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim();
  if (p.startsWith('$')) p = p.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '.') {
      if (p[i + 1] === '.') return null; // recursive descent: not in this subset
      i++;
      if (p[i] === '*') {
        steps.push({ kind: 'all' });
        i++;
        continue;
      }
      const m = /^[A-Za-z0-9_\-/$]+/.exec(p.slice(i));
      if (!m) return null;
      steps.push({ kind: 'field', name: m[0] });
      i += m[0].length;
    } else if (c === '[') {
      const close = bracketEnd(p, i);
      if (close < 0) return null;
      const inner = p.slice(i + 1, close).trim();
      i = close + 1;
      const step = bracketStep(inner);
      if (step === null) return null;
      steps.push(step);
    } else {
      return null;
    }
  }
  return steps;
}

function bracketEnd(p: string, open: number): number {
  let quote: string | undefined;
  let depth = 0;
  for (let j = open; j < p.length; j++) {
    const c = p[j]!;
    if (quote) {
      if (c === '\\') j++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') {
      depth--;
      if (depth === 0 && c === ']') return j;
    }
  }
  return -1;
}

function bracketStep(inner: string): Step | null {
  if (inner === '*') return { kind: 'all' };
  if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const quoted = /^(['"])(.*)\1$/s.exec(inner);
  if (quoted) return { kind: 'field', name: quoted[2]! };
  const filter = /^\?\((.*)\)$/s.exec(inner);
  if (!filter) return null;
  const expr = filter[1]!.trim();
  const m = /^(@[^\s=!<>]*)\s*(==|!=|<=|>=|<|>)\s*(.+)$/s.exec(expr);
  if (!m) {
    const left = atPath(expr);
    return left ? { kind: 'filter', left } : null;
  }
  const left = atPath(m[1]!);
  if (!left) return null;
  const rhs = m[3]!.trim();
  const right = rhs.startsWith('@') ? atPath(rhs) : literal(rhs);
  if (right === null || right === undefined) return null;
  return { kind: 'filter', left, op: m[2]!, right };
}

function atPath(expr: string): Step[] | null {
  if (!expr.startsWith('@')) return null;
  return parsePath(expr.slice(1));
}

function literal(text: string): { literal: unknown } | null {
  const quoted = /^(['"])(.*)\1$/s.exec(text);
  if (quoted) return { literal: quoted[2] };
  if (text === 'true' || text === 'false') return { literal: text === 'true' };
  if (text === 'null') return { literal: null };
  const n = Number(text);
  return Number.isFinite(n) ? { literal: n } : null;
}
