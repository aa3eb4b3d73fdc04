// k8s.io/apiserver pkg/cel/library/regex.go: string.find(regex) and string.findAll(regex[, limit]).
import { celList } from '@bufbuild/cel';
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

function findAll(s: string, pattern: string, limit: bigint): string[] {
  const out: string[] = [];
  if (limit === 0n) return out;
  for (const m of s.matchAll(compile(pattern))) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

const cost = (t: unknown, a: unknown[]) => strCost(t) * Math.max(1, strCost(a[0]));

export const regexLibrary: K8sOverload[] = [
  method('find', (t, [p]) => (typeof t === 'string' && typeof p === 'string' ? (compile(p).exec(t)?.[0] ?? '') : undefined), cost),
  method('findAll', (t, [p, l]) => (typeof t === 'string' && typeof p === 'string' && (l === undefined || typeof l === 'bigint') ? celList(findAll(t, p, l ?? -1n)) : undefined), cost),
];
