// go-cmp's comparison tree (its valueNode): two values compared under their Go type, with the
// counts of equal and different leaves the reporter decides its layout by. Lists are aligned by
// an edit script (longest common subsequence of equal elements), maps by sorted key.
import type { Obj } from '../../../machinery/validation/common.js';
import { fieldValue, isNil, isNilOf, leafEqual, mapKey, resolve, type GoType } from './go-types.js';

export interface Node {
  t: GoType;
  x: unknown;
  y: unknown;
  hasX: boolean;
  hasY: boolean;
  recs: { key: string; node: Node }[];
  child?: Node;
  numSame: number;
  numDiff: number;
  numChildren: number;
  maxDepth: number;
}

function leaf(t: GoType, x: unknown, y: unknown, hasX: boolean, hasY: boolean, equal: boolean): Node {
  return { t, x, y, hasX, hasY, recs: [], numSame: equal ? 1 : 0, numDiff: equal ? 0 : 1, numChildren: 0, maxDepth: 0 };
}

function aggregate(n: Node, children: Node[]): Node {
  for (const c of children) {
    n.numSame += c.numSame;
    n.numDiff += c.numDiff;
    n.numChildren += c.numChildren + 1;
    n.maxDepth = Math.max(n.maxDepth, c.maxDepth + 1);
  }
  return n;
}

function deepEqual(t: GoType, x: unknown, y: unknown): boolean {
  return compare(t, x, y, true, true).numDiff === 0;
}

/** Equal-or-not edit script of two lists: LCS on equal elements, leftovers paired as modified. */
function editScript(t: GoType, xs: unknown[], ys: unknown[]): ('=' | 'M' | 'X' | 'Y')[] {
  if (xs.length === ys.length) return xs.map((x, i) => (deepEqual(t, x, ys[i]) ? '=' : 'M'));
  const n = xs.length;
  const m = ys.length;
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = deepEqual(t, xs[i], ys[j]) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: ('=' | 'M' | 'X' | 'Y')[] = [];
  let i = 0;
  let j = 0;
  let gapX = 0;
  let gapY = 0;
  const flush = () => {
    const mod = Math.min(gapX, gapY);
    for (let k = 0; k < mod; k++) out.push('M');
    for (let k = mod; k < gapX; k++) out.push('X');
    for (let k = mod; k < gapY; k++) out.push('Y');
    gapX = 0;
    gapY = 0;
  };
  while (i < n && j < m) {
    if (deepEqual(t, xs[i], ys[j])) {
      flush();
      out.push('=');
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) {
      gapX++;
      i++;
    } else {
      gapY++;
      j++;
    }
  }
  gapX += n - i;
  gapY += m - j;
  flush();
  return out;
}

export function compare(t0: GoType, x: unknown, y: unknown, hasX: boolean, hasY: boolean): Node {
  const t = resolve(t0, hasX ? x : y);
  if (!hasX || !hasY) return leaf(t, x, y, hasX, hasY, false);
  switch (t.k) {
    case 'str':
    case 'int':
    case 'bool':
    case 'qty':
      return leaf(t, x, y, true, true, leafEqual(t, x, y));
    case 'ptr': {
      if (isNil(x) || isNil(y)) return leaf(t, x, y, true, true, isNil(x) && isNil(y));
      const c = compare(t.e, x, y, true, true);
      const n: Node = { t, x, y, hasX, hasY, recs: [], child: c, numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      return aggregate(n, [c]);
    }
    case 'slice': {
      if (isNilOf(t, x) || isNilOf(t, y)) return leaf(t, x, y, true, true, isNilOf(t, x) && isNilOf(t, y));
      const xs = x as unknown[];
      const ys = y as unknown[];
      const n: Node = { t, x, y, hasX, hasY, recs: [], numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      let i = 0;
      let j = 0;
      for (const e of editScript(t.e, xs, ys)) {
        if (e === 'X') n.recs.push({ key: '', node: compare(t.e, xs[i++], undefined, true, false) });
        else if (e === 'Y') n.recs.push({ key: '', node: compare(t.e, undefined, ys[j++], false, true) });
        else n.recs.push({ key: '', node: compare(t.e, xs[i++], ys[j++], true, true) });
      }
      return aggregate(n, n.recs.map((r) => r.node));
    }
    case 'map': {
      if (isNilOf(t, x) || isNilOf(t, y)) return leaf(t, x, y, true, true, isNilOf(t, x) && isNilOf(t, y));
      const xo = x as Obj;
      const yo = y as Obj;
      const n: Node = { t, x, y, hasX, hasY, recs: [], numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      for (const k of [...new Set([...Object.keys(xo), ...Object.keys(yo)])].sort()) {
        n.recs.push({ key: mapKey(t, k), node: compare(t.e, xo[k], yo[k], k in xo, k in yo) });
      }
      return aggregate(n, n.recs.map((r) => r.node));
    }
    case 'struct': {
      const n: Node = { t, x, y, hasX, hasY, recs: [], numSame: 0, numDiff: 0, numChildren: 0, maxDepth: 0 };
      for (const fd of t.fields) n.recs.push({ key: fd.go, node: compare(fd.t, fieldValue(x, fd), fieldValue(y, fd), true, true) });
      return aggregate(n, n.recs.map((r) => r.node));
    }
    default:
      return leaf(t, x, y, true, true, x === y);
  }
}
