// The harness of the node agent's tests: an agent over a fake clientset and a fake clock.
import { FakeClientset, FakeClock, FakeInformerFactory, FakeRecorder, flush } from '../client/fake/index.js';
import type { ContainerState, Pod, PodSpec, PodStatus } from '../api/types.js';
import { NodeAgent, type NodeAgentOptions } from './agent.js';

export const PODS = { group: '', version: 'v1', resource: 'pods' };
export const NODES = { group: '', version: 'v1', resource: 'nodes' };
export const LEASES = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };

export async function setup(opts: Partial<NodeAgentOptions> = {}) {
  const clientset = new FakeClientset();
  const informers = new FakeInformerFactory(clientset);
  const clock = new FakeClock();
  const recorder = new FakeRecorder('kubelet');
  const agent = new NodeAgent({
    clientset,
    informers,
    clock,
    recorder,
    nodes: 2,
    eventQps: 1000,
    leaseRenewIntervalMs: 1000,
    statusUpdateFrequencyMs: 1000,
    statusReportFrequencyMs: 5000,
    ...opts,
  });
  await agent.start();
  informers.start();
  await flush();
  const tick = async (ms: number) => {
    // in steps, so the work started by each timer runs before the next fires
    for (let left = ms; left > 0; left -= 100) {
      clock.advance(Math.min(100, left));
      await flush(20);
    }
  };
  const getPod = (name: string): Pod | undefined => clientset.tracker.get(PODS, 'default', name);
  const createPod = async (name: string, spec: PodSpec, annotations: Record<string, string> = {}) => {
    await clientset.resource(PODS).create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', annotations }, spec: { nodeName: 'kubelite-node-0', containers: [{ name: 'c', image: 'nginx' }], ...spec } });
    await flush(20);
  };
  return { clientset, informers, clock, recorder, agent, tick, getPod, createPod };
}

export const status = (p: Pod | undefined): PodStatus => p?.status ?? {};
export const cond = (p: Pod | undefined, type: string) => (status(p).conditions ?? []).find((c) => c.type === type);
export const cstate = (p: Pod | undefined, i = 0): ContainerState => status(p).containerStatuses![i]!.state ?? {};

