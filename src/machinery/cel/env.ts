// The Kubernetes CEL environment on top of @bufbuild/cel: its standard library and `ext`
// strings, plus the libraries of k8s.io/apiserver pkg/cel/library, dispatched by one resolver
// that also counts runtime cost (one per call plus the size-proportional costs cel-go charges)
// against the per-call budget.
import { isCelList, isCelMap, type CelEnv } from '@bufbuild/cel';
import { stdEnv, stdGroup } from './std.js';
import { celEquals } from './values.js';
import { listsLibrary, pairsLibrary } from './library/lists.js';
import { regexLibrary } from './library/regex.js';
import { setsLibrary } from './library/sets.js';
import { quantityLibrary } from './library/quantity.js';
import { urlsLibrary } from './library/urls.js';
import { formatLibrary } from './library/format.js';
import { optionalLibrary } from './library/optional.js';
import { authzLibrary } from './library/authz.js';
import { ipLibrary } from './library/ip.js';
import { semverLibrary } from './library/semver.js';
import { isOpaque } from './library/opaque.js';
import type { K8sOverload } from './library/types.js';

export const ACTUAL_COST_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

/** The running evaluation's cost and limit (evaluation is synchronous, so one is enough). */
export const costMeter = { cost: 0, limit: Number.POSITIVE_INFINITY };

export function charge(n: number): void {
  costMeter.cost += n;
  if (costMeter.cost > costMeter.limit) throw new Error(ACTUAL_COST_EXCEEDED);
}

// Collections (set/map lists compare unordered) and Kubernetes' own values compare here.
const ownEquality = (a: unknown, b: unknown) => isCelList(a) || isCelMap(a) || isCelList(b) || isCelMap(b) || isOpaque(a) || isOpaque(b);
const equality: K8sOverload[] = [
  { name: '_==_', method: false, call: (_t, [a, b]) => (ownEquality(a, b) ? celEquals(a, b) : undefined) },
  { name: '_!=_', method: false, call: (_t, [a, b]) => (ownEquality(a, b) ? !celEquals(a, b) : undefined) },
];

const libraries: K8sOverload[] = [...equality, ...listsLibrary, ...regexLibrary, ...setsLibrary, ...quantityLibrary, ...urlsLibrary, ...formatLibrary, ...optionalLibrary, ...authzLibrary, ...ipLibrary, ...semverLibrary, ...pairsLibrary];

interface Group { name: string; call(id: bigint, target: unknown, args: unknown[]): unknown }

function group(name: string): Group | undefined {
  const own = libraries.filter((o) => o.name === name);
  const std = stdGroup(name);
  if (own.length === 0 && !std) return undefined;
  return {
    name,
    call(id, target, args) {
      charge(1);
      for (const o of own) {
        if (o.method !== (target !== undefined)) continue;
        const r = o.call(target, args);
        if (r !== undefined) {
          if (o.cost) charge(o.cost(target, args, r));
          return r;
        }
      }
      return std?.call(id, target, args);
    },
  };
}

const groups = new Map<string, Group | undefined>();

/** Every function and method name the environment knows (for the checker's undeclared references). */
export const functionNames: ReadonlySet<string> = new Set<string>([
  ...libraries.map((o) => o.name),
  ...Array.from(stdEnv.funcs as unknown as Iterable<{ name: string }>, (f) => f.name),
]);

const resolver = {
  find(name: string): Group | undefined {
    if (!groups.has(name)) groups.set(name, group(name));
    return groups.get(name);
  },
};

/** The environment handed to @bufbuild/cel's planner: its registry, our function resolver. */
export const k8sEnv = { namespace: '', registry: stdEnv.registry, funcs: resolver, variables: stdEnv.variables } as unknown as CelEnv;
