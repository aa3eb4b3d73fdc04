// k8s.io/apiserver pkg/cel/library/lists.go: isSorted, sum, min, max, indexOf, lastIndexOf on lists.
import { celList, celUint, isCelList, isCelMap, isCelUint, type CelList, type CelMap } from '@bufbuild/cel';
import { compareValues, celEquals } from '../values.js';
import { fn, method, type K8sOverload } from './types.js';

const items = (l: unknown): unknown[] | undefined => (isCelList(l) ? Array.from(l as CelList) : undefined);
const size = (t: unknown) => (isCelList(t) ? (t as CelList).size : 0);

function sum(xs: unknown[]): unknown {
  if (xs.length === 0) return 0n; // cel-go: zero of the element type; dyn lists default to int
  let acc: unknown = xs[0];
  for (const x of xs.slice(1)) {
    if (typeof acc === 'bigint' && typeof x === 'bigint') acc = acc + x;
    else if (typeof acc === 'number' && typeof x === 'number') acc = acc + x;
    else if (isCelUint(acc) && isCelUint(x)) acc = celUint(acc.value + x.value);
    else throw new Error('no such overload');
  }
  return acc;
}

function extreme(xs: unknown[], name: string, pick: (c: number) => boolean): unknown {
  if (xs.length === 0) throw new Error(`${name}(list) called on empty list`);
  let best = xs[0];
  for (const x of xs.slice(1)) if (pick(compareValues(x, best))) best = x;
  return best;
}

export const listsLibrary: K8sOverload[] = [
  method('isSorted', (t) => { const xs = items(t); if (!xs) return undefined; for (let i = 1; i < xs.length; i++) if (compareValues(xs[i - 1], xs[i]) > 0) return false; return true; }, size),
  method('sum', (t) => { const xs = items(t); return xs && sum(xs); }, size),
  method('min', (t) => { const xs = items(t); return xs && extreme(xs, 'min', (c) => c < 0); }, size),
  method('max', (t) => { const xs = items(t); return xs && extreme(xs, 'max', (c) => c > 0); }, size),
  method('indexOf', (t, [v]) => { const xs = items(t); if (!xs) return undefined; return BigInt(xs.findIndex((x) => celEquals(x, v))); }, size),
  method('lastIndexOf', (t, [v]) => { const xs = items(t); if (!xs) return undefined; for (let i = xs.length - 1; i >= 0; i--) if (celEquals(xs[i], v)) return BigInt(i); return -1n; }, size),
];

/** The pairs two-variable comprehensions iterate (two-var.ts): [index, value] of a list, [key, value] of a map. */
export const pairsLibrary: K8sOverload[] = [
  fn('@k8s.pairs', ([r]) => {
    if (isCelList(r)) return celList(Array.from(r as CelList, (v, i) => celList([BigInt(i), v] as never)) as never);
    if (isCelMap(r)) return celList(Array.from(r as CelMap, ([k, v]) => celList([k, v] as never)) as never);
    return undefined;
  }, (_t, [r]) => (isCelList(r) ? (r as CelList).size : isCelMap(r) ? (r as CelMap).size : 0)),
];
