// k8s.io/apiserver pkg/cel/library/regex.go: string.find(regex) and string.findAll(regex[, limit]).
import { celList } from '@bufbuild/cel';
import { RE2JS } from '@bufbuild/re2';
import { method, strCost, type K8sOverload } from './types.js';

const cache = new Map<string, RegExp>();
function compile(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'gu');
    if (cache.size > 256) cache.clear();
    cache.set(pattern, re);
  }
  re.lastIndex = 0;
  return re;
}

const re2 = new Map<string, RE2JS>();
/**
 * Whether the pattern matches at all, by an RE2 engine (linear): JavaScript's engine, which finds
 * the matched text, then only runs when there is something to find — the case where a
 * backtracking engine can take exponential time is a failing search.
 */
function anyMatch(s: string, pattern: string): boolean {
  let re = re2.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    if (re2.size > 256) re2.clear();
    re2.set(pattern, re);
  }
  return re.test(s);
}

function find(s: string, pattern: string): string {
  return anyMatch(s, pattern) ? (compile(pattern).exec(s)?.[0] ?? '') : '';
}

function findAll(s: string, pattern: string, limit: bigint): string[] {
  const out: string[] = [];
  if (limit === 0n || !anyMatch(s, pattern)) return out;
  for (const m of s.matchAll(compile(pattern))) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

const cost = (t: unknown, a: unknown[]) => strCost(t) * Math.max(1, strCost(a[0]));

export const regexLibrary: K8sOverload[] = [
  method('find', (t, [p]) => (typeof t === 'string' && typeof p === 'string' ? find(t, p) : undefined), cost),
  method('findAll', (t, [p, l]) => (typeof t === 'string' && typeof p === 'string' && (l === undefined || typeof l === 'bigint') ? celList(findAll(t, p, l ?? -1n)) : undefined), cost),
];
