// What the agent's informers keep of each object: no managedFields (nothing here reads them), and
// of a Node only what the agent reads — its metadata (the simulate and pressure annotations, the
// zone label), spec (podCIDRs, taints) and status conditions and attached volumes. Capacity,
// addresses, nodeInfo and images are the agent's own report, never read back: at 10,000 nodes
// they were a third of each cached Node. The strings most Nodes repeat (label and annotation
// values, the conditions' types, reasons, messages and times) are kept once, not once a Node.
import type { Node, NodeCondition } from '../api/types.js';
import { stripManagedFields } from '../client/informers.js';
import type { KubeObject } from '../client/types.js';

/** Strings kept once (emptied when full: a bound, not a cache that must hold everything). */
const MAX_INTERNED = 8192;
const interned = new Map<string, string>();

function intern<T>(s: T): T {
  if (typeof s !== 'string') return s;
  const known = interned.get(s);
  if (known !== undefined) return known as T;
  if (interned.size >= MAX_INTERNED) interned.clear();
  interned.set(s, s);
  return s;
}

function internValues(m: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) out[k] = intern(v);
  return out;
}

const internCondition = (c: NodeCondition): NodeCondition => {
  const out: NodeCondition = {};
  for (const [k, v] of Object.entries(c)) (out as Record<string, unknown>)[k] = intern(v);
  return out;
};

export function agentView(o: KubeObject): KubeObject {
  const view = stripManagedFields(o);
  if (view.kind !== 'Node') return view;
  const node = view as Node;
  const status = node.status;
  if (status === undefined || status === null) return view;
  const { conditions, volumesAttached } = status;
  const meta = node.metadata;
  const metadata = meta && { ...meta, ...(meta.labels ? { labels: internValues(meta.labels) } : {}), ...(meta.annotations ? { annotations: internValues(meta.annotations) } : {}) };
  return {
    ...view,
    ...(metadata ? { metadata } : {}),
    status: { ...(conditions ? { conditions: conditions.map(internCondition) } : {}), ...(volumesAttached !== undefined ? { volumesAttached } : {}) },
  } as KubeObject;
}
