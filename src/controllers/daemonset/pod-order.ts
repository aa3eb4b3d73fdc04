// The order in which a DaemonSet's pods on one node are kept (podByCreationTimestampAndPhase).
import { creationTimestampOf, nameOf } from '../../api/meta/object.js';
import type { Pod } from '../../api/types.js';

export function byCreationAndPhase(a: Pod, b: Pod): number {
  const pa = a.status?.phase ?? '';
  const pb = b.status?.phase ?? '';
  if (pa !== pb) {
    // running pods before others (podByCreationTimestampAndPhase)
    if (pa === 'Running') return -1;
    if (pb === 'Running') return 1;
  }
  const ta = Date.parse(creationTimestampOf(a)) || 0;
  const tb = Date.parse(creationTimestampOf(b)) || 0;
  if (ta !== tb) return ta - tb;
  return nameOf(a) < nameOf(b) ? -1 : nameOf(a) > nameOf(b) ? 1 : 0;
}
