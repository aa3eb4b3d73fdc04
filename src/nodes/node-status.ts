// What a simulated node reports about itself: its labels, capacity, addresses, nodeInfo and the
// conditions a kubelet posts (Ready and the three pressure conditions).
import type { NodeCondition, NodeStatus } from '../api/types.js';
import { ANNOTATION_PREFIX } from './behaviour.js';
import type { NodeAgentOptions } from './options.js';
import type { SimNode } from './sim-node.js';
import { imageID, rfc3339 } from './simulate.js';

export const SIMULATE_ANNOTATION = `${ANNOTATION_PREFIX}simulate`;
export const KUBELET_VERSION = 'v1.33.0-kubelite';

export function nodeLabels(node: SimNode, opts: NodeAgentOptions): Record<string, string> {
  const arch = opts.arch ?? 'amd64';
  const l: Record<string, string> = {
    'beta.kubernetes.io/arch': arch,
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': arch,
    'kubernetes.io/hostname': node.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': opts.instanceType ?? 'kubelite',
    'beta.kubernetes.io/instance-type': opts.instanceType ?? 'kubelite',
    type: 'kubelite',
  };
  if (node.zone) {
    l['topology.kubernetes.io/zone'] = node.zone;
    l['failure-domain.beta.kubernetes.io/zone'] = node.zone;
  }
  if (opts.region) {
    l['topology.kubernetes.io/region'] = opts.region;
    l['failure-domain.beta.kubernetes.io/region'] = opts.region;
  }
  return { ...l, ...(opts.labels ?? {}) };
}

/** A node's capacity, also its allocatable. */
export function nodeResources(opts: NodeAgentOptions): Record<string, string> {
  return {
    cpu: opts.cpu ?? '4',
    memory: opts.memory ?? '8Gi',
    pods: String(opts.pods ?? 110),
    'ephemeral-storage': opts.ephemeralStorage ?? '100Gi',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
  };
}

/** The node's conditions at `now`; notes on the node when Ready last changed. */
export function nodeConditions(node: SimNode, now: number): NodeCondition[] {
  const ready = node.mode === 'ok';
  if (node.lastReady !== ready) {
    node.lastReady = ready;
    node.readyTransition = now;
  }
  const hb = rfc3339(now);
  const since = rfc3339(node.readyTransition || now);
  if (!node.registeredAt) node.registeredAt = now;
  const registered = rfc3339(node.registeredAt);
  // The pressure conditions as the eviction manager sets them (eviction-manager.ts), with the kubelet's reasons.
  const pressure = (type: string, no: [string, string], yes: [string, string]): NodeCondition => {
    const p = node.pressure.get(type);
    const [reason, message] = p?.status ? yes : no;
    return { type, status: p?.status ? 'True' : 'False', lastHeartbeatTime: hb, lastTransitionTime: p ? rfc3339(p.since) : registered, reason, message };
  };
  return [
    pressure('MemoryPressure', ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'], ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available']),
    pressure('DiskPressure', ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'], ['KubeletHasDiskPressure', 'kubelet has disk pressure']),
    pressure('PIDPressure', ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'], ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available']),
    ready
      ? { type: 'Ready', status: 'True', lastHeartbeatTime: hb, lastTransitionTime: since, reason: 'KubeletReady', message: 'kubelet is posting ready status' }
      : { type: 'Ready', status: 'False', lastHeartbeatTime: hb, lastTransitionTime: since, reason: 'KubeletNotReady', message: `simulated by ${SIMULATE_ANNOTATION}=NotReady` },
  ];
}

/** The kubelet's --node-status-max-images: the largest images it lists. */
const NODE_STATUS_MAX_IMAGES = 50;

/** status.images: the node's cached images, largest first, each by digest and by tag (Kubernetes' ImageLocality scoring reads them). */
export function nodeImages(node: SimNode): { names: string[]; sizeBytes: number }[] {
  return [...node.images]
    .sort((a, b) => b[1] - a[1])
    .slice(0, NODE_STATUS_MAX_IMAGES)
    .map(([ref, sizeBytes]) => ({ names: [imageID(ref), ref], sizeBytes }));
}

/** The whole status a node registers with. */
export function nodeStatus(node: SimNode, opts: NodeAgentOptions, now: number): NodeStatus {
  const res = nodeResources(opts);
  const arch = opts.arch ?? 'amd64';
  return {
    capacity: res,
    allocatable: res,
    conditions: nodeConditions(node, now),
    addresses: [
      { type: 'InternalIP', address: node.ip },
      { type: 'Hostname', address: node.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: opts.kubeletPort ?? 10250 } },
    nodeInfo: {
      machineID: `kubelite-${node.index}`,
      systemUUID: `00000000-0000-4000-8000-${String(node.index).padStart(12, '0')}`,
      bootID: `kubelite-boot-${node.index}`,
      kernelVersion: '6.1.0-kubelite',
      osImage: 'kubelite simulated node',
      containerRuntimeVersion: 'kubelite://0.1',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: arch,
    },
  };
}
