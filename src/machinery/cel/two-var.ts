// cel-go's two-variable comprehensions (ext.TwoVarComprehensions, enabled since Kubernetes 1.32):
// `list.all(i, v, p)`, `map.exists(k, v, p)`, `existsOne`/`exists_one`. @bufbuild/cel's folds
// have one iteration variable, so these calls are rewritten before planning into one-variable
// comprehensions over the (index or key, value) pairs, with the two names read from the pair.
import type { parse } from '@bufbuild/cel';

type Expr = NonNullable<ReturnType<typeof parse>['expr']>;

/** The function the rewritten range calls: a list of [index|key, value] pairs. */
export const PAIRS_FUNCTION = '@k8s.pairs';

let nextId = 1n << 40n; // far above the parser's ids, which index source positions
const id = () => nextId++;
const ident = (name: string): Expr => ({ id: id(), exprKind: { case: 'identExpr', value: { name } } }) as unknown as Expr;
const call = (fn: string, args: Expr[]): Expr => ({ id: id(), exprKind: { case: 'callExpr', value: { function: fn, args } } }) as unknown as Expr;
const int = (v: bigint): Expr => ({ id: id(), exprKind: { case: 'constExpr', value: { constantKind: { case: 'int64Value', value: v } } } }) as unknown as Expr;
const bool = (v: boolean): Expr => ({ id: id(), exprKind: { case: 'constExpr', value: { constantKind: { case: 'boolValue', value: v } } } }) as unknown as Expr;

/** `e` with free occurrences of `names` replaced (comprehensions that rebind a name shadow it). */
function substitute(e: Expr, names: Map<string, () => Expr>): Expr {
  const k = e.exprKind;
  switch (k.case) {
    case 'identExpr': {
      const r = names.get(k.value.name);
      return r ? r() : e;
    }
    case 'selectExpr':
      return { ...e, exprKind: { case: 'selectExpr', value: { ...k.value, operand: k.value.operand && substitute(k.value.operand, names) } } } as Expr;
    case 'callExpr':
      return { ...e, exprKind: { case: 'callExpr', value: { ...k.value, target: k.value.target && substitute(k.value.target, names), args: k.value.args.map((a) => substitute(a, names)) } } } as Expr;
    case 'listExpr':
      return { ...e, exprKind: { case: 'listExpr', value: { ...k.value, elements: k.value.elements.map((a) => substitute(a, names)) } } } as Expr;
    case 'structExpr':
      return { ...e, exprKind: { case: 'structExpr', value: { ...k.value, entries: k.value.entries.map((en) => ({ ...en, keyKind: en.keyKind.case === 'mapKey' ? { case: 'mapKey', value: substitute(en.keyKind.value, names) } : en.keyKind, value: en.value && substitute(en.value, names) })) } } } as Expr;
    case 'comprehensionExpr': {
      const c = k.value;
      const inner = new Map(names);
      inner.delete(c.iterVar);
      inner.delete(c.accuVar);
      return { ...e, exprKind: { case: 'comprehensionExpr', value: { ...c, iterRange: c.iterRange && substitute(c.iterRange, names), accuInit: c.accuInit && substitute(c.accuInit, names), loopCondition: c.loopCondition && substitute(c.loopCondition, inner), loopStep: c.loopStep && substitute(c.loopStep, inner), result: c.result && substitute(c.result, inner) } } } as Expr;
    }
  }
  return e;
}

let pairCounter = 0;

/** `e` with every two-variable all/exists/existsOne rewritten (innermost first). */
export function rewriteTwoVar(e: Expr): Expr {
  const k = e.exprKind;
  if (k.case === 'callExpr') {
    const c = k.value;
    const target = c.target && rewriteTwoVar(c.target);
    const args = c.args.map(rewriteTwoVar);
    const [a0, a1, pred] = args;
    if (target && args.length === 3 && ['all', 'exists', 'existsOne', 'exists_one'].includes(c.function) && a0!.exprKind.case === 'identExpr' && a1!.exprKind.case === 'identExpr') {
      const pair = `@pair${pairCounter++}`;
      const names = new Map<string, () => Expr>([
        [a0!.exprKind.value.name, () => call('_[_]', [ident(pair), int(0n)])],
        [a1!.exprKind.value.name, () => call('_[_]', [ident(pair), int(1n)])],
      ]);
      const p = substitute(pred!, names);
      const acc = '@result';
      const fold = (init: Expr, cond: Expr, step: Expr, result: Expr): Expr =>
        ({ id: e.id, exprKind: { case: 'comprehensionExpr', value: { iterVar: pair, iterVar2: '', iterRange: call(PAIRS_FUNCTION, [target]), accuVar: acc, accuInit: init, loopCondition: cond, loopStep: step, result } } }) as unknown as Expr;
      if (c.function === 'all') return fold(bool(true), call('@not_strictly_false', [ident(acc)]), call('_&&_', [ident(acc), p]), ident(acc));
      if (c.function === 'exists') return fold(bool(false), call('@not_strictly_false', [call('!_', [ident(acc)])]), call('_||_', [ident(acc), p]), ident(acc));
      return fold(int(0n), bool(true), call('_?_:_', [p, call('_+_', [ident(acc), int(1n)]), ident(acc)]), call('_==_', [ident(acc), int(1n)]));
    }
    return { ...e, exprKind: { case: 'callExpr', value: { ...c, target, args } } } as Expr;
  }
  if (k.case === 'selectExpr' && k.value.operand) return { ...e, exprKind: { case: 'selectExpr', value: { ...k.value, operand: rewriteTwoVar(k.value.operand) } } } as Expr;
  if (k.case === 'listExpr') return { ...e, exprKind: { case: 'listExpr', value: { ...k.value, elements: k.value.elements.map(rewriteTwoVar) } } } as Expr;
  if (k.case === 'comprehensionExpr') {
    const c = k.value;
    return { ...e, exprKind: { case: 'comprehensionExpr', value: { ...c, iterRange: c.iterRange && rewriteTwoVar(c.iterRange), accuInit: c.accuInit && rewriteTwoVar(c.accuInit), loopCondition: c.loopCondition && rewriteTwoVar(c.loopCondition), loopStep: c.loopStep && rewriteTwoVar(c.loopStep), result: c.result && rewriteTwoVar(c.result) } } } as Expr;
  }
  return e;
}
