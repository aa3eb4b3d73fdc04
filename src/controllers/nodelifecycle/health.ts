// What the node lifecycle controller remembers of each node between passes (nodeHealthData) and the
// decision of tryUpdateNodeHealth: when the node last showed a sign of life (a new Ready heartbeat
// or a renewed Lease) and when its Ready condition last changed; past the grace period the node's
// Ready, MemoryPressure, DiskPressure and PIDPressure conditions become Unknown.
import { creationTimestampOf } from '../../api/meta/object.js';
import type { Lease, Node, NodeCondition } from '../../api/types.js';
import { timeMs } from '../common/time.js';
import { nodeCondition } from './taints.js';

export interface NodeHealth {
  /** The Ready condition last seen (its heartbeat and transition times). */
  ready?: NodeCondition;
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  leaseRenewTime?: number;
}

const UNKNOWN_TYPES = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'] as const;

export interface HealthDecision {
  health: NodeHealth;
  /** The Ready condition as the node reported it. */
  observed: NodeCondition;
  /** The Ready condition after this pass (Unknown when the node went silent). */
  current: NodeCondition | undefined;
  /** The node with its conditions set Unknown, to be written, when they changed. */
  statusUpdate?: Node;
}

/** tryUpdateNodeHealth without the write: `saved` is the last pass's record (undefined for a node not seen yet). */
export function decideHealth(node: Node, saved: NodeHealth | undefined, lease: Lease | undefined, now: number, graceMs: { monitor: number; startup: number }): HealthDecision {
  const created = timeMs(creationTimestampOf(node));
  const currentReady = nodeCondition(node, 'Ready');
  let grace = graceMs.monitor;
  let observed: NodeCondition;
  let health = saved;
  if (!currentReady) {
    // never posted: a stand-in Unknown condition dated at creation, with the startup grace period
    observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: creationTimestampOf(node), lastTransitionTime: creationTimestampOf(node) };
    grace = graceMs.startup;
    health ??= { probeTimestamp: created, readyTransitionTimestamp: created };
  } else {
    observed = { ...currentReady };
  }
  const savedReady = health?.ready;
  if (!health) {
    health = { probeTimestamp: now, readyTransitionTimestamp: now };
  } else if (!savedReady && currentReady) {
    health = { probeTimestamp: now, readyTransitionTimestamp: now, leaseRenewTime: health.leaseRenewTime };
  } else if (savedReady && !currentReady) {
    health = { probeTimestamp: now, readyTransitionTimestamp: now, leaseRenewTime: health.leaseRenewTime };
  } else if (savedReady && currentReady && savedReady.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
    const transitioned = savedReady.lastTransitionTime !== currentReady.lastTransitionTime;
    health = { probeTimestamp: now, readyTransitionTimestamp: transitioned ? now : health.readyTransitionTimestamp, leaseRenewTime: health.leaseRenewTime };
  } else {
    health = { ...health };
  }
  health.ready = currentReady ? { ...currentReady } : undefined;
  // a renewed Lease is a sign of life too
  const renewed = lease ? timeMs(lease.spec?.renewTime) : 0;
  if (lease && (health.leaseRenewTime === undefined || health.leaseRenewTime < renewed)) {
    health.leaseRenewTime = renewed;
    health.probeTimestamp = now;
  }
  if (now <= health.probeTimestamp + grace) return { health, observed, current: currentReady };

  const updated = structuredClone(node);
  const conditions = ((updated.status ??= {}).conditions ??= []);
  const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  for (const type of UNKNOWN_TYPES) {
    const c = conditions.find((x) => x?.type === type);
    if (!c) {
      conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: creationTimestampOf(node), lastTransitionTime: stamp });
    } else if (c.status !== 'Unknown') {
      Object.assign(c, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: stamp });
    }
  }
  const current = conditions.find((x): x is NodeCondition => x?.type === 'Ready');
  if (JSON.stringify(current) === JSON.stringify(observed)) return { health, observed, current };
  return { health: { ...health, ready: current ? { ...current } : undefined, readyTransitionTimestamp: now }, observed, current, statusUpdate: updated };
}
