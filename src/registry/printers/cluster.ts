// Tables of the cluster kinds: nodes, namespaces, events, leases.
import { arr, int, obj, since, str } from './format.js';
import { ageColumn, column, NAME_DESCRIPTION, nameColumn, type TablePrinter } from './types.js';

const name = (o: Record<string, unknown>) => str(obj(o.metadata).name);
const age = (o: Record<string, unknown>, now: number) => since(obj(o.metadata).creationTimestamp, now);

/** Roles from `node-role.kubernetes.io/<role>` labels and the legacy `kubernetes.io/role` label. */
function nodeRoles(labels: Record<string, unknown>): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels)) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role !== '') roles.add(role);
    } else if (k === 'kubernetes.io/role' && typeof v === 'string' && v !== '') {
      roles.add(v);
    }
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeAddress(status: Record<string, unknown>, type: string): string {
  return str(arr(status.addresses).find((a) => a.type === type)?.address) || '<none>';
}

const NODE_ADDRESSES_DESCRIPTION =
  'List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/concepts/nodes/node/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example.';

export const nodePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn,
    column('Version', 'string', 'Kubelet Version reported by the node.'),
    column('Internal-IP', 'string', NODE_ADDRESSES_DESCRIPTION, 1),
    column('External-IP', 'string', NODE_ADDRESSES_DESCRIPTION, 1),
    column('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
    column('Kernel-Version', 'string', 'Kernel Version reported by the node from \'uname -r\' (e.g. 3.16.0-0.bpo.4-amd64).', 1),
    column('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
  ],
  cells(o, now) {
    const status = obj(o.status);
    const ready = arr(status.conditions).find((c) => c.type === 'Ready');
    const states: string[] = [];
    if (ready) states.push(ready.status === 'True' ? 'Ready' : 'NotReady');
    else states.push('Unknown');
    if (obj(o.spec).unschedulable === true) states.push('SchedulingDisabled');
    const info = obj(status.nodeInfo);
    return [
      name(o),
      states.join(','),
      nodeRoles(obj(obj(o.metadata).labels)),
      age(o, now),
      str(info.kubeletVersion),
      nodeAddress(status, 'InternalIP'),
      nodeAddress(status, 'ExternalIP'),
      str(info.osImage),
      str(info.kernelVersion),
      str(info.containerRuntimeVersion),
    ];
  },
};

export const namespacePrinter: TablePrinter = {
  columns: [nameColumn, column('Status', 'string', 'The status of the namespace'), ageColumn],
  cells: (o, now) => [name(o), str(obj(o.status).phase), age(o, now)],
};

function eventSource(o: Record<string, unknown>): string {
  const source = obj(o.source);
  let component = str(source.component);
  let host = str(source.host);
  if (component === '' && host === '') {
    component = str(o.reportingComponent);
    host = str(o.reportingInstance);
  }
  return host === '' ? component : `${component}, ${host}`;
}

export const eventPrinter: TablePrinter = {
  columns: [
    column('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    column('Reason', 'string', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'string', 'The object that this event is about.'),
    column('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.', 1),
    column('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.', 1),
    column('Message', 'string', 'A human-readable description of the status of this operation.'),
    column('First Seen', 'string', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
    column('Count', 'string', 'The number of times this event has occurred.', 1),
    column('Name', 'string', NAME_DESCRIPTION, 1, 'name'),
  ],
  cells(o, now) {
    const involved = obj(o.involvedObject);
    let first = since(o.firstTimestamp, now);
    if (typeof o.firstTimestamp !== 'string') first = since(o.eventTime, now);
    let last = typeof o.lastTimestamp === 'string' ? since(o.lastTimestamp, now) : first;
    let count = int(o.count);
    const series = o.series === undefined || o.series === null ? undefined : obj(o.series);
    if (series) {
      last = since(series.lastObservedTime, now);
      count = int(series.count);
    } else if (count === 0) {
      count = 1;
    }
    const kind = str(involved.kind).toLowerCase();
    const target = str(involved.name) === '' ? kind : `${kind}/${str(involved.name)}`;
    return [last, str(o.type), str(o.reason), target, str(involved.fieldPath), eventSource(o), str(o.message).trim(), first, count, name(o)];
  },
};

export const leasePrinter: TablePrinter = {
  columns: [nameColumn, column('Holder', 'string', 'The current holder of the lease.'), ageColumn],
  cells: (o, now) => [name(o), str(obj(o.spec).holderIdentity), age(o, now)],
};
