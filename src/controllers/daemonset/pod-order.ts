// The order in which a DaemonSet's pods on one node are kept (podByCreationTimestampAndPhase).
import type { KubeObject } from '../../client/types.js';
import { creationTimestampOf, nameOf } from '../../api/meta/object.js';

export function byCreationAndPhase(a: KubeObject, b: KubeObject): number {
  const pa = (a.status as { phase?: string } | undefined)?.phase ?? '';
  const pb = (b.status as { phase?: string } | undefined)?.phase ?? '';
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
