// The node lifecycle controller's taints (controller/util/node and nodelifecycle): NoSchedule taints
// mirroring node conditions and `spec.unschedulable`, and the NoExecute not-ready / unreachable
// taints that make the taint-eviction controller remove pods. Taints are swapped with an update of
// spec.taints conditioned on the node's resourceVersion, retried on conflicts from a fresh read.
import { nameOf } from '../../api/meta/object.js';
import type { Node, NodeCondition, Taint } from '../../api/types.js';
import { isConflict } from '../../client/errors.js';
import type { KubeObject, ResourceClient } from '../../client/types.js';
import { rfc3339 } from '../common/time.js';

export const NOT_READY = 'node.kubernetes.io/not-ready';
export const UNREACHABLE = 'node.kubernetes.io/unreachable';
export const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export const NOT_READY_NO_EXECUTE: Taint = { key: NOT_READY, effect: 'NoExecute' };
export const UNREACHABLE_NO_EXECUTE: Taint = { key: UNREACHABLE, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap: which condition status a NoSchedule taint stands for. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: NOT_READY, Unknown: UNREACHABLE },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

const sameTaint = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;
export const hasTaint = (node: Node, taint: Taint): boolean => (node.spec?.taints ?? []).some((t) => t != null && sameTaint(t, taint));

export function nodeCondition(node: Node, type: string): NodeCondition | undefined {
  return (node.status?.conditions ?? []).find((c): c is NodeCondition => c?.type === type);
}

/** doNoScheduleTaintingPass: the NoSchedule taints the node's conditions and spec ask for, and those it has. */
export function noScheduleTaintDiff(node: Node): { add: Taint[]; remove: Taint[] } {
  const want: Taint[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = c?.type ? CONDITION_TAINTS[c.type]?.[c.status ?? ''] : undefined;
    if (key) want.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable) want.push({ key: UNSCHEDULABLE, effect: 'NoSchedule' });
  const have = (node.spec?.taints ?? []).filter((t): t is Taint => t != null && t.effect === 'NoSchedule' && (t.key === UNSCHEDULABLE || CONDITION_TAINT_KEYS.has(t.key ?? '')));
  return { add: want.filter((w) => !have.some((h) => sameTaint(h, w))), remove: have.filter((h) => !want.some((w) => sameTaint(h, w))) };
}

/**
 * SwapNodeControllerTaint: adds `add` (stamped with timeAdded) and removes `remove` on the node.
 * Returns whether the node now has them so (false when the node is gone).
 */
export async function swapTaints(client: ResourceClient, node: Node, add: readonly Taint[], remove: readonly Taint[], now: number): Promise<boolean> {
  let current = node;
  for (let attempt = 0; ; attempt++) {
    const taints = (current.spec?.taints ?? []).filter((t): t is Taint => t != null && !remove.some((r) => sameTaint(r, t)) && !add.some((a) => sameTaint(a, t)));
    for (const a of add) taints.push({ ...a, timeAdded: rfc3339(now) });
    const unchanged = add.every((a) => hasTaint(current, a)) && !remove.some((r) => hasTaint(current, r));
    if (unchanged) return true;
    const next: Node = { ...current, spec: { ...current.spec, taints } };
    try {
      await client.update('', next as KubeObject);
      return true;
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
      current = (await client.get('', nameOf(node))) as Node;
    }
  }
}
