// cel-go ext.Sets(): sets.contains, sets.equivalent, sets.intersects over lists.
import { isCelList, type CelList } from '@bufbuild/cel';
import { celEquals } from '../values.js';
import { fn, type K8sOverload } from './types.js';

const lists = (a: unknown[]): [unknown[], unknown[]] | undefined => (isCelList(a[0]) && isCelList(a[1]) ? [Array.from(a[0] as CelList), Array.from(a[1] as CelList)] : undefined);
const has = (xs: unknown[], y: unknown) => xs.some((x) => celEquals(x, y));
const cost = (_t: unknown, a: unknown[]) => (isCelList(a[0]) ? (a[0] as CelList).size : 0) * (isCelList(a[1]) ? (a[1] as CelList).size : 0);

export const setsLibrary: K8sOverload[] = [
  fn('sets.contains', (a) => { const l = lists(a); return l && l[1].every((y) => has(l[0], y)); }, cost),
  fn('sets.equivalent', (a) => { const l = lists(a); return l && l[1].every((y) => has(l[0], y)) && l[0].every((x) => has(l[1], x)); }, cost),
  fn('sets.intersects', (a) => { const l = lists(a); return l && l[1].some((y) => has(l[0], y)); }, cost),
];
