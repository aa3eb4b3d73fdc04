// What several volume parts read the same way: the claims a pod's volumes name, and a storage
// quantity in bytes.
import { nameOf } from '../../api/meta/object.js';
import { parseQuantity } from '../../api/meta/quantity.js';
import type { Pod } from '../../api/types.js';

/** The claims a pod's volumes name: persistentVolumeClaim sources, and `<pod>-<volume>` for generic ephemeral ones. */
export function podClaimNames(pod: Pod): { name: string; ephemeral: boolean }[] {
  const out: { name: string; ephemeral: boolean }[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v?.persistentVolumeClaim?.claimName) out.push({ name: v.persistentVolumeClaim.claimName, ephemeral: false });
    else if (v?.ephemeral) out.push({ name: `${nameOf(pod)}-${v.name}`, ephemeral: true });
  }
  return out;
}

/** A storage quantity (`1Gi`) in bytes; 0 when absent or malformed. */
export const storageBytes = (q: unknown): bigint => (typeof q === 'string' ? (parseQuantity(q)?.scaledValueBig(0) ?? 0n) : 0n);
