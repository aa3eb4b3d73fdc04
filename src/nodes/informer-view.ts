// What the agent's informers keep of each object: no managedFields (nothing here reads them), and
// of a Node only what the agent reads — its metadata (the simulate and pressure annotations, the
// zone label), spec (podCIDRs, taints) and status conditions and attached volumes. Capacity,
// addresses, nodeInfo and images are the agent's own report, never read back: at 10,000 nodes
// they were a third of each cached Node.
import type { Node } from '../api/types.js';
import { stripManagedFields } from '../client/informers.js';
import type { KubeObject } from '../client/types.js';

export function agentView(o: KubeObject): KubeObject {
  const view = stripManagedFields(o);
  if (view.kind !== 'Node') return view;
  const status = (view as Node).status;
  if (status === undefined || status === null) return view;
  const { conditions, volumesAttached } = status;
  return { ...view, status: { ...(conditions !== undefined ? { conditions } : {}), ...(volumesAttached !== undefined ? { volumesAttached } : {}) } } as KubeObject;
}
