// Tables of the cluster kinds: nodes, namespaces, events, leases.
import { arr, int, obj, since, str } from './format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from './types.js';

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

export const nodePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Readiness of the node, and whether it accepts new pods.'),
    column('Roles', 'string', 'The roles of the node.'),
    ageColumn,
    column('Version', 'string', 'The kubelet version the node reports.'),
    column('Internal-IP', 'string', 'The node’s internal IP address.', 1),
    column('External-IP', 'string', 'The node’s external IP address.', 1),
    column('OS-Image', 'string', 'The operating system image the node reports.', 1),
    column('Kernel-Version', 'string', 'The kernel version the node reports.', 1),
    column('Container-Runtime', 'string', 'The container runtime and its version.', 1),
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
  columns: [nameColumn, column('Status', 'string', 'The phase of the namespace.'), ageColumn],
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
    column('Last Seen', 'string', 'When the event was last seen.'),
    column('Type', 'string', 'Normal or Warning.'),
    column('Reason', 'string', 'Why the event happened, in a word.'),
    column('Object', 'string', 'The object the event is about.'),
    column('Subobject', 'string', 'The part of the object (e.g. a container).', 1),
    column('Source', 'string', 'The component that reported the event.', 1),
    column('Message', 'string', 'What happened.'),
    column('First Seen', 'string', 'When the event was first seen.', 1),
    column('Count', 'string', 'How often the event happened.', 1),
    column('Name', 'string', 'The name of the event.', 1, 'name'),
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
