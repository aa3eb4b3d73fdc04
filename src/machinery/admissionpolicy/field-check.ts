// The part of Kubernetes' policy type checking kubelite can do before machinery/cel's typed
// environment is merged: a field selected on `object`, `oldObject` or `params` (and on what their
// fields, list items and map values are) that the kind's schema does not have is cel-go's
// `undefined field '<name>'`, reported at the `.` as cel-go's checker reports it. Selections on
// values whose type is open (maps, raw extensions, int-or-string, comprehension variables) are
// not checked, so this reports a subset of cel-go's issues and never one cel-go would not.
import { parse } from '@bufbuild/cel';
import type { StructType, Type } from '../../api/schema/dsl.js';
import type { KindVersion } from '../../api/schema/kind.js';
import { formatIssue } from '../cel/index.js';

type Expr = NonNullable<ReturnType<typeof parse>['expr']>;

interface Issue {
  offset: number;
  message: string;
}

function walk(expr: Expr | undefined, roots: ReadonlyMap<string, StructType>, positions: Record<string, number>, issues: Issue[]): Type | undefined {
  if (!expr) return undefined;
  const e = expr.exprKind;
  switch (e.case) {
    case 'identExpr':
      return roots.get(e.value.name);
    case 'selectExpr': {
      const on = walk(e.value.operand, roots, positions, issues);
      if (on?.kind === 'map') return on.of;
      if (on?.kind !== 'struct') return undefined;
      const f = on.fields[e.value.field];
      if (f) return f.type;
      issues.push({ offset: positions[String(expr.id)] ?? 0, message: `undefined field '${e.value.field}'` });
      return undefined;
    }
    case 'callExpr': {
      walk(e.value.target, roots, positions, issues);
      const args = e.value.args.map((a) => walk(a, roots, positions, issues));
      const indexed = args[0];
      if (e.value.function === '_[_]' && (indexed?.kind === 'list' || indexed?.kind === 'map')) return indexed.of;
      return undefined;
    }
    case 'listExpr':
      for (const el of e.value.elements) walk(el, roots, positions, issues);
      return undefined;
    case 'structExpr':
      for (const entry of e.value.entries) {
        if (entry.keyKind.case === 'mapKey') walk(entry.keyKind.value, roots, positions, issues);
        walk(entry.value, roots, positions, issues);
      }
      return undefined;
    case 'comprehensionExpr': {
      const c = e.value;
      walk(c.iterRange, roots, positions, issues);
      // The loop's variables hide roots of the same name.
      const inner = new Map(roots);
      for (const v of [c.iterVar, c.iterVar2, c.accuVar]) inner.delete(v);
      walk(c.accuInit, roots, positions, issues);
      for (const part of [c.loopCondition, c.loopStep, c.result]) walk(part, inner, positions, issues);
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A TypedExpressionChecker (type-checking.ts) over the kinds' schemas. */
export function fieldChecker(expression: string, env: { object: KindVersion; params?: KindVersion }): string | undefined {
  let parsed;
  try {
    parsed = parse(expression);
  } catch {
    return undefined; // The kind's validation already refuses what does not parse.
  }
  const roots = new Map<string, StructType>([
    ['object', env.object.type],
    ['oldObject', env.object.type],
  ]);
  if (env.params) roots.set('params', env.params.type);
  const issues: Issue[] = [];
  const positions = Object.fromEntries(Object.entries(parsed.sourceInfo?.positions ?? {}).map(([k, v]) => [String(k), Number(v)]));
  walk(parsed.expr, roots, positions, issues);
  if (issues.length === 0) return undefined;
  return issues
    .sort((a, b) => a.offset - b.offset)
    .map((i) => formatIssue(expression, i.offset, i.message))
    .join('\n');
}
