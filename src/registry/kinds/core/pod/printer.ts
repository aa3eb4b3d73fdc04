// The pod table kubectl shows: READY, STATUS (the same aggregate reason kubectl computes from init
// containers, containers, deletion and node loss), RESTARTS (with the last restart's age) and the
// wide columns IP, NODE, NOMINATED NODE, READINESS GATES.
import { arr, int, obj, since, str } from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter, type TableRowCondition } from '../../../printers/types.js';

const COMPLETED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** An init container with restartPolicy Always is a sidecar: it counts as a regular container. */
function isSidecar(container: Record<string, unknown> | undefined): boolean {
  return container?.restartPolicy === 'Always';
}

function laterOf(a: string | undefined, b: unknown): string | undefined {
  if (typeof b !== 'string' || b === '') return a;
  return a === undefined || Date.parse(b) > Date.parse(a) ? b : a;
}

/** The STATUS, READY and RESTARTS of a pod, as kubectl's pod printer computes them. */
export function podStatusSummary(pod: Record<string, unknown>, now: number): { ready: string; reason: string; restarts: string } {
  const spec = obj(pod.spec);
  const status = obj(pod.status);
  const metadata = obj(pod.metadata);
  const initContainers = arr(spec.initContainers);
  const byName = new Map(initContainers.map((c) => [str(c.name), c]));
  let total = arr(spec.containers).length + initContainers.filter(isSidecar).length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: string | undefined;
  let lastSidecarRestart: string | undefined;
  let reason = str(status.reason) || str(status.phase);
  const conditions = arr(status.conditions);
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i]!;
    const state = obj(c.state);
    const terminated = state.terminated === undefined || state.terminated === null ? undefined : obj(state.terminated);
    const waiting = state.waiting === undefined || state.waiting === null ? undefined : obj(state.waiting);
    restarts += int(c.restartCount);
    const lastTerminated = obj(obj(c.lastState).terminated);
    lastRestart = laterOf(lastRestart, lastTerminated.finishedAt);
    const sidecar = isSidecar(byName.get(str(c.name)));
    if (sidecar) {
      sidecarRestarts += int(c.restartCount);
      lastSidecarRestart = laterOf(lastSidecarRestart, lastTerminated.finishedAt);
    }
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready === true) ready++;
      continue;
    }
    if (terminated) {
      const r = str(terminated.reason);
      if (r !== '') reason = `Init:${r}`;
      else if (int(terminated.signal) !== 0) reason = `Init:Signal:${int(terminated.signal)}`;
      else reason = `Init:ExitCode:${int(terminated.exitCode)}`;
    } else if (waiting && str(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${initContainers.length}`;
    }
    initializing = true;
    break;
  }

  const initialized = conditions.some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      const state = obj(c.state);
      const terminated = state.terminated === undefined || state.terminated === null ? undefined : obj(state.terminated);
      const waiting = state.waiting === undefined || state.waiting === null ? undefined : obj(state.waiting);
      restarts += int(c.restartCount);
      lastRestart = laterOf(lastRestart, obj(obj(c.lastState).terminated).finishedAt);
      if (waiting && str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (terminated && str(terminated.reason) !== '') reason = str(terminated.reason);
      else if (terminated) reason = int(terminated.signal) !== 0 ? `Signal:${int(terminated.signal)}` : `ExitCode:${int(terminated.exitCode)}`;
      else if (c.ready === true && state.running !== undefined && state.running !== null) {
        hasRunning = true;
        ready++;
      }
    }
    // A pod whose last container completed while another still runs is Running (or NotReady).
    if (reason === 'Completed' && hasRunning) {
      reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }

  const deleting = metadata.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null;
  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && !terminal) reason = 'Terminating';

  total = Math.max(total, 0);
  let restartsText = String(restarts);
  if (restarts !== 0 && lastRestart !== undefined) restartsText = `${restarts} (${since(lastRestart, now)} ago)`;
  return { ready: `${ready}/${total}`, reason, restarts: restartsText };
}

export const podPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn,
    column('IP', 'string', 'IP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    column('Node', 'string', 'NodeName is a request to schedule this pod onto a specific node. If it is non-empty, the scheduler simply schedules this pod onto that node, assuming that it fits resource requirements.', 1),
    column('Nominated Node', 'string', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', 1),
    column('Readiness Gates', 'string', 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates', 1),
  ],
  cells(pod, now) {
    const spec = obj(pod.spec);
    const status = obj(pod.status);
    const summary = podStatusSummary(pod, now);
    const gates = arr(spec.readinessGates);
    let readinessGates = '<none>';
    if (gates.length > 0) {
      const conditions = arr(status.conditions);
      const trueCount = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
      readinessGates = `${trueCount}/${gates.length}`;
    }
    const podIPs = arr(status.podIPs);
    return [
      str(obj(pod.metadata).name),
      summary.ready,
      summary.reason,
      summary.restarts,
      since(obj(pod.metadata).creationTimestamp, now),
      str(podIPs[0]?.ip) || '<none>',
      str(spec.nodeName) || '<none>',
      str(status.nominatedNodeName) || '<none>',
      readinessGates,
    ];
  },
  conditions(pod) {
    const phase = obj(pod.status).phase;
    return phase === 'Succeeded' ? COMPLETED : phase === 'Failed' ? FAILED : undefined;
  },
};
