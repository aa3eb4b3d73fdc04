// Which PersistentVolume a claim may bind (the PV controller's findBestMatchForClaim): one pre-bound
// to it, or else the smallest Available volume of the claim's class and volume mode that offers all
// its access modes, at least its requested storage, and matches its selector.
import { labelsOf, nameOf, namespaceOf, uidOf } from '../../api/meta/object.js';
import { parseQuantity } from '../../api/meta/quantity.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/types.js';
import { labelSelectorAsSelector } from '../../machinery/selectors/index.js';

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

/** findBestMatchForClaim. */
export function bestVolumeFor(c: PersistentVolumeClaim, volumes: readonly PersistentVolume[]): PersistentVolume | undefined {
  let best: PersistentVolume | undefined;
  for (const v of volumes) {
    if (v.metadata?.deletionTimestamp) continue;
    if (preBoundTo(v, c) && fits(v, c)) return v;
    if (v.spec?.claimRef || v.status?.phase !== 'Available') continue;
    if (!fits(v, c)) continue;
    if (!best || capacityBytes(v) < capacityBytes(best)) best = v;
  }
  return best;
}
