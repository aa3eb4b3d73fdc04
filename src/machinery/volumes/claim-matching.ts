// Which PersistentVolume a claim may bind (Kubernetes' findMatchingVolume, shared by the PV
// controller and the scheduler's VolumeBinding): one pre-bound to it, or else the smallest Available
// volume of the claim's class and volume mode that offers all its access modes, at least its
// requested storage, matches its selector and — when a node is given — whose node affinity admits it.
import { labelsOf, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import { parseQuantity } from '../../api/meta/quantity.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/types.js';
import { labelSelectorAsSelector } from '../selectors/index.js';
import { compileNodeSelectorTerms } from '../selectors/node-affinity.js';

export const claimClass = (c: PersistentVolumeClaim): string => c.spec?.storageClassName ?? '';
export const volumeClass = (v: PersistentVolume): string => v.spec?.storageClassName ?? '';

const bytes = (q: unknown): number => (typeof q === 'string' ? (parseQuantity(q)?.value() ?? 0) : 0);
export const requestedBytes = (c: PersistentVolumeClaim): number => bytes(c.spec?.resources?.requests?.storage);
export const capacityBytes = (v: PersistentVolume): number => bytes(v.spec?.capacity?.storage);

/** Whether the volume's claimRef names this claim (by namespace and name, and uid when it has one). */
export function preBoundTo(v: PersistentVolume, c: PersistentVolumeClaim): boolean {
  const ref = v.spec?.claimRef;
  if (!ref) return false;
  return ref.namespace === namespaceOf(c) && ref.name === nameOf(c) && (!ref.uid || ref.uid === uidOf(c));
}

function fits(v: PersistentVolume, c: PersistentVolumeClaim): boolean {
  if (volumeClass(v) !== claimClass(c)) return false;
  if ((v.spec?.volumeMode ?? 'Filesystem') !== (c.spec?.volumeMode ?? 'Filesystem')) return false;
  const modes = new Set(v.spec?.accessModes ?? []);
  if (!(c.spec?.accessModes ?? []).every((m) => modes.has(m))) return false;
  if (capacityBytes(v) < requestedBytes(c)) return false;
  if (c.spec?.selector) {
    try {
      if (!labelSelectorAsSelector(c.spec.selector).matches(labelsOf(v))) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** A node, as a volume's node affinity sees it. */
export interface NodeLabels {
  name: string;
  labels: Readonly<Record<string, string>>;
}

/** Whether the volume's spec.nodeAffinity (required terms) admits the node; no affinity admits every node. */
export function volumeNodeAffinityMatches(v: PersistentVolume, node: NodeLabels): boolean {
  const required = v.spec?.nodeAffinity?.required;
  if (!required) return true;
  return compileNodeSelectorTerms(required.nodeSelectorTerms)(node.labels, node.name);
}

export interface MatchOptions {
  /** Only volumes whose node affinity admits this node (the scheduler's question). */
  node?: NodeLabels;
  /** The claim's class binds on first consumer: without a node, only a volume pre-bound to it matches. */
  delayBinding?: boolean;
  /** Volumes already promised to other claims. */
  exclude?: ReadonlySet<string>;
}

/** findMatchingVolume. */
export function bestVolumeFor(c: PersistentVolumeClaim, volumes: readonly PersistentVolume[], opts: MatchOptions = {}): PersistentVolume | undefined {
  let best: PersistentVolume | undefined;
  for (const v of volumes) {
    if (v.metadata?.deletionTimestamp || opts.exclude?.has(nameOf(v))) continue;
    const nodeOk = !opts.node || volumeNodeAffinityMatches(v, opts.node);
    if (preBoundTo(v, c) && fits(v, c)) return nodeOk ? v : undefined;
    if (!opts.node && opts.delayBinding) continue;
    if (v.spec?.claimRef || v.status?.phase !== 'Available' || !nodeOk) continue;
    if (!fits(v, c)) continue;
    if (!best || capacityBytes(v) < capacityBytes(best)) best = v;
  }
  return best;
}
