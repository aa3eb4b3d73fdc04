// What goes wrong on nodes, through the composed agent on a fake clock: image pulls that fail and
// back off, OOM kills, local storage limits, memory pressure and the kubelet's evictions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameOf } from '../api/meta/object.js';
import type { Node } from '../api/types.js';
import { cond, cstate, NODES, setup, status } from './agent.testutil.js';

import type { RecordedEvent } from '../client/fake/recorder.js';

const of = (recorder: { events: RecordedEvent[] }, pod: string) => recorder.events.filter((e) => nameOf(e.object) === pod);
const reasons = (recorder: { events: RecordedEvent[] }, pod: string) => of(recorder, pod).map((e) => e.reason);

test('an image under a reserved TLD: Pulling, Failed, ErrImagePull, then BackOff/ImagePullBackOff, retried with the back-off', async () => {
  const { agent, createPod, getPod, tick, recorder } = await setup({ imagePull: { pullMs: 500, backoffInitialMs: 2000 } });
  await createPod('bad', { containers: [{ name: 'c', image: 'registry.invalid/app:1.0' }] });
  assert.equal(cstate(getPod('bad')).waiting?.reason, 'ErrImagePull');
  assert.equal(status(getPod('bad')).phase, 'Pending');
  await tick(1000);
  assert.equal(cstate(getPod('bad')).waiting?.reason, 'ImagePullBackOff');
  assert.deepEqual(reasons(recorder, 'bad'), ['Pulling', 'Failed', 'Failed', 'BackOff', 'Failed']);
  assert.deepEqual(recorder.events.filter((e) => e.reason === 'Failed').map((e) => e.message.replace(/:.*$/s, '')), ['Failed to pull image "registry.invalid/app', 'Error', 'Error']);
  await tick(1500); // the second attempt, 2 s after the first
  assert.equal(reasons(recorder, 'bad').filter((r) => r === 'Pulling').length, 2);
  await agent.stop();
});

test('a slow pull keeps the container ContainerCreating, then Pulled with its time and size; the next pod finds the image present', async () => {
  const { agent, clientset, createPod, getPod, tick, recorder } = await setup({ imagePull: { pullMs: 500 } });
  await createPod('slow', { containers: [{ name: 'c', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }] }, { 'kubelite.dev/image-pull': 'slow:3' });
  assert.equal(cstate(getPod('slow')).waiting?.reason, 'ContainerCreating');
  await tick(3000);
  assert.equal(status(getPod('slow')).phase, 'Running');
  const pulled = recorder.events.find((e) => e.reason === 'Pulled')!;
  assert.match(pulled.message, /^Successfully pulled image "nginx:1.27" in 3s \(3s including waiting\)\. Image size: \d+ bytes\.$/);
  await createPod('again', { containers: [{ name: 'c', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }] });
  assert.equal(status(getPod('again')).phase, 'Running');
  assert.deepEqual(reasons(recorder, 'again'), ['Pulled', 'Created', 'Started']);
  assert.equal(of(recorder, 'again')[0]!.message, 'Container image "nginx:1.27" already present on machine');
  // the node lists its images in its status (Kubernetes' ImageLocality scoring reads them) at its
  // next status update, which comes within 1 s plus the kubelet's 4% jitter
  await tick(2000);
  const images = (clientset.tracker.get(NODES, '', 'kubelite-node-0') as Node).status!.images!;
  assert.deepEqual(images.map((i) => i.names![1]), ['docker.io/library/nginx:1.27']);
  assert.match(String(images[0]!.names![0]), /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  assert.equal(images[0]!.names![0], status(getPod('slow')).containerStatuses![0]!.imageID);
  await createPod('never', { containers: [{ name: 'c', image: 'busybox:1', imagePullPolicy: 'Never' }] });
  assert.equal(cstate(getPod('never')).waiting?.reason, 'ErrImageNeverPull');
  await agent.stop();
});

test('memory usage over the limit: OOMKilled (exit 137), restarted with back-off; policy Always pulls again', async () => {
  const { agent, createPod, getPod, tick, recorder } = await setup();
  await createPod('hog', { containers: [{ name: 'c', image: 'nginx', resources: { limits: { memory: '128Mi' } } }] }, { 'kubelite.dev/usage': 'memory=256Mi' });
  await tick(1000);
  const c = status(getPod('hog')).containerStatuses![0]!;
  assert.equal(c.restartCount, 1);
  assert.equal(c.lastState?.terminated?.reason, 'OOMKilled');
  assert.equal(c.lastState?.terminated?.exitCode, 137);
  assert.deepEqual(reasons(recorder, 'hog'), ['Pulling', 'Pulled', 'Created', 'Started', 'Pulling', 'Pulled', 'Created', 'Started']);
  await tick(1000);
  assert.equal(cstate(getPod('hog')).waiting?.reason, 'CrashLoopBackOff');
  await agent.stop();
});

test('memory pressure: the condition on the Node, the BestEffort pod evicted first with the kubelet\'s message, then relief', async () => {
  const { agent, clientset, createPod, getPod, tick, recorder } = await setup({ memory: '1Gi', eviction: { monitoringIntervalMs: 1000, pressureTransitionPeriodMs: 5000 } });
  await createPod('guaranteed', { containers: [{ name: 'c', image: 'nginx', resources: { requests: { memory: '600Mi' }, limits: { memory: '600Mi' } } }] }, { 'kubelite.dev/usage': 'memory=500Mi' });
  await createPod('best-effort', {}, { 'kubelite.dev/usage': 'memory=200Mi' });
  await tick(1000);
  const node = () => clientset.tracker.get(NODES, '', 'kubelite-node-0') as Node;
  const pressure = () => node().status!.conditions!.find((c) => c.type === 'MemoryPressure')!;
  assert.equal(pressure().status, 'True');
  assert.equal(pressure().reason, 'KubeletHasInsufficientMemory');
  // without a controller manager (lifecycleTaints), the agent keeps the node lifecycle controller's taint
  const taints = () => (node().spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`);
  assert.deepEqual(taints(), ['node.kubernetes.io/memory-pressure:NoSchedule']);
  const evicted = getPod('best-effort');
  assert.equal(status(evicted).phase, 'Failed');
  assert.equal(status(evicted).reason, 'Evicted');
  assert.match(String(status(evicted).message), /^The node was low on resource: memory\. Threshold quantity: 100Mi, available: 68Mi\. Container c was using 200Mi, request is 0, has larger consumption of memory\. $/);
  assert.equal(cond(evicted, 'DisruptionTarget')?.reason, 'TerminationByKubelet');
  assert.deepEqual(reasons(recorder, 'best-effort').slice(-2), ['Evicted', 'Killing']);
  assert.equal(status(getPod('guaranteed')).phase, 'Running');
  // under MemoryPressure the kubelet refuses new BestEffort pods, admits the others
  await createPod('late-best-effort', {});
  await createPod('late-burstable', { containers: [{ name: 'c', image: 'nginx', resources: { requests: { memory: '1Mi' } } }] });
  assert.deepEqual([status(getPod('late-best-effort')).phase, status(getPod('late-best-effort')).reason, status(getPod('late-best-effort')).message], ['Failed', 'Evicted', 'The node had condition: [MemoryPressure]. ']);
  assert.equal(cond(getPod('late-best-effort'), 'DisruptionTarget'), undefined);
  assert.equal(status(getPod('late-burstable')).phase, 'Running');
  await tick(6000);
  assert.equal(pressure().status, 'False');
  assert.deepEqual(taints(), []);
  assert.equal(status(getPod('guaranteed')).phase, 'Running');
  await agent.stop();
});

test('the kubelite.dev/pressure annotation forces a condition; a pod over its ephemeral-storage limit is evicted', async () => {
  const { agent, clientset, createPod, getPod, tick } = await setup({ eviction: { monitoringIntervalMs: 1000 } });
  await clientset.resource(NODES).patch('', 'kubelite-node-0', 'merge', { metadata: { annotations: { 'kubelite.dev/pressure': 'DiskPressure,PIDPressure' } } });
  await createPod('writer', { containers: [{ name: 'c', image: 'nginx', resources: { limits: { 'ephemeral-storage': '1Gi' } } }] }, { 'kubelite.dev/ephemeral-storage-usage': '2Gi' });
  await tick(1000);
  const conds = (clientset.tracker.get(NODES, '', 'kubelite-node-0') as Node).status!.conditions!;
  assert.deepEqual(conds.filter((c) => c.status === 'True').map((c) => c.type).sort(), ['DiskPressure', 'PIDPressure', 'Ready']);
  assert.equal(status(getPod('writer')).reason, 'Evicted');
  assert.equal(status(getPod('writer')).message, 'Container c exceeded its local ephemeral storage limit "1Gi". ');
  await agent.stop();
});

test('disk and process pressure: DiskPressure from the pods\' local storage, PIDPressure from their processes (--eviction-hard)', async () => {
  const { agent, clientset, createPod, getPod, tick } = await setup({ ephemeralStorage: '1Gi', eviction: { hard: 'nodefs.available<500Mi,pid.available<32500', monitoringIntervalMs: 1000 } });
  await createPod('writer', {}, { 'kubelite.dev/ephemeral-storage-usage': '700Mi' });
  await createPod('forker', { nodeName: 'kubelite-node-1' }, { 'kubelite.dev/pids': '100' });
  await tick(1000);
  const conds = (name: string) => (clientset.tracker.get(NODES, '', name) as Node).status!.conditions!.filter((c) => c.status === 'True').map((c) => `${c.type}:${c.reason}`);
  assert.deepEqual(conds('kubelite-node-0'), ['DiskPressure:KubeletHasDiskPressure', 'Ready:KubeletReady']);
  assert.deepEqual(conds('kubelite-node-1'), ['PIDPressure:KubeletHasInsufficientPID', 'Ready:KubeletReady']);
  // (the node's disk also holds the image it pulled for the pod)
  assert.match(String(status(getPod('writer')).message), /^The node was low on resource: ephemeral-storage\. Threshold quantity: 500Mi, available: \d+(Ki|Mi)?\. Container c was using 700Mi, request is 0, has larger consumption of ephemeral-storage\. $/);
  assert.equal(status(getPod('forker')).message, 'The node was low on resource: pids. Threshold quantity: 32500, available: 32468. ');
  await agent.stop();
});
