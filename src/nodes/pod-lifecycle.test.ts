// The pod lifecycle, through the composed agent: pods bound to the simulated nodes walked through
// Pending, Running, Succeeded/Failed, restarts and graceful deletion, with their events and IPs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock, FakeInformerFactory, flush } from '../client/fake/index.js';
import { NodeAgent } from './agent.js';
import { cond, cstate, PODS, setup, status } from './agent.testutil.js';

test('a restartPolicy Always pod goes Running and Ready, with podIP, containerID, imageID and the kubelet events', async () => {
  const { agent, createPod, getPod, recorder } = await setup();
  await createPod('web', {});
  const p = getPod('web');
  assert.equal(status(p).phase, 'Running');
  assert.equal(cond(p, 'Ready')?.status, 'True');
  assert.equal(cond(p, 'PodScheduled')?.status, 'True');
  assert.equal(cond(p, 'ContainersReady')?.status, 'True');
  assert.match(String(status(p).podIP), /^10\.64\.0\.\d+$/);
  assert.equal(status(p).hostIP, '10.0.0.2');
  const c = status(p).containerStatuses![0]!;
  assert.match(String(c.containerID), /^kubelite:\/\//);
  assert.match(String(c.imageID), /^docker\.io\/library\/nginx@sha256:/);
  assert.ok(cstate(p).running);
  assert.deepEqual(recorder.events.map((e) => e.reason), ['Pulling', 'Pulled', 'Created', 'Started']);
  await createPod('web2', {});
  assert.notEqual(status(getPod('web2')).podIP, status(p).podIP);
  await agent.stop();
});

test('pods of other nodes are left alone', async () => {
  const { agent, createPod, getPod } = await setup();
  await createPod('elsewhere', { nodeName: 'other' });
  assert.equal(getPod('elsewhere')!.status, undefined);
  await agent.stop();
});

test('a Job-style pod (Never, sh -c "exit 3") ends Failed with exit code 3; a plain one Succeeded after 1 s', async () => {
  const { agent, createPod, getPod, tick } = await setup();
  await createPod('fail', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'exit 3'] }] });
  await createPod('ok', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] });
  assert.equal(status(getPod('fail')).phase, 'Failed');
  assert.equal(cstate(getPod('fail')).terminated?.exitCode, 3);
  assert.equal(status(getPod('ok')).phase, 'Running');
  await tick(1000);
  assert.equal(status(getPod('ok')).phase, 'Succeeded');
  assert.equal(cstate(getPod('ok')).terminated?.reason, 'Completed');
  await agent.stop();
});

test('crash loop: restarts with back-off, BackOff events, restartCount', async () => {
  const { agent, createPod, getPod, tick, recorder } = await setup();
  await createPod('crash', {}, { 'kubelite.dev/crash-after-seconds': '1' });
  await tick(1500);
  assert.equal(status(getPod('crash')).containerStatuses![0]!.restartCount, 1);
  await tick(1000);
  assert.equal((cstate(getPod('crash')).waiting ?? {}).reason, 'CrashLoopBackOff');
  assert.ok(recorder.events.some((e) => e.reason === 'BackOff' && e.type === 'Warning'));
  await tick(10_000);
  assert.equal(status(getPod('crash')).containerStatuses![0]!.restartCount, 2);
  await agent.stop();
});

test('init containers, readiness delay and activeDeadlineSeconds through the agent', async () => {
  const { agent, createPod, getPod, tick, recorder } = await setup();
  await createPod('init', { initContainers: [{ name: 'i', image: 'busybox', command: ['sleep', '2'] }], containers: [{ name: 'c', image: 'nginx', readinessProbe: { initialDelaySeconds: 3 } }] });
  assert.equal(status(getPod('init')).phase, 'Pending');
  assert.equal(cond(getPod('init'), 'Initialized')?.status, 'False');
  await tick(2000);
  assert.equal(status(getPod('init')).phase, 'Running');
  assert.equal(cond(getPod('init'), 'Ready')?.status, 'False');
  await tick(3000);
  assert.equal(cond(getPod('init'), 'Ready')?.status, 'True');
  await createPod('deadline', { restartPolicy: 'Never', activeDeadlineSeconds: 2 }, { 'kubelite.dev/run-seconds': '100' });
  await tick(2000);
  assert.equal(status(getPod('deadline')).phase, 'Failed');
  assert.equal(status(getPod('deadline')).reason, 'DeadlineExceeded');
  assert.ok(recorder.events.some((e) => e.reason === 'DeadlineExceeded' && e.type === 'Warning'));
  await agent.stop();
});

test('graceful deletion: the pod stops after its grace period and is deleted with grace 0 and the uid precondition', async () => {
  const { agent, clientset, createPod, getPod, tick, recorder } = await setup();
  await createPod('web', { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 3600'] }] });
  const p = getPod('web')!;
  const meta = p.metadata ?? {};
  // (the fake removes an object with a deletionTimestamp on its next write unless a finalizer holds it)
  clientset.tracker.add({ ...p, metadata: { ...meta, finalizers: ['test/hold'], deletionTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 5)).toISOString(), deletionGracePeriodSeconds: 5 } });
  await flush(20);
  assert.ok(recorder.events.some((e) => e.reason === 'Killing'));
  const deletes = () => clientset.actions.filter((a) => a.verb === 'delete' && a.resource === 'pods');
  await tick(4900);
  assert.equal(deletes().length, 0);
  assert.ok(cstate(getPod('web')).running);
  await tick(100);
  assert.equal(deletes().length, 1);
  const term = cstate(getPod('web')).terminated;
  assert.deepEqual([term?.exitCode, term?.reason], [137, 'Error']);
  assert.equal(status(getPod('web')).phase, 'Failed');
  const del = deletes()[0]!;
  assert.deepEqual(del.options, { gracePeriodSeconds: 0, preconditions: { uid: meta.uid } });
  // a terminal pod is deleted at once
  await createPod('job', { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['true'] }] });
  assert.equal(status(getPod('job')).phase, 'Succeeded');
  const j = getPod('job')!;
  clientset.tracker.add({ ...j, metadata: { ...j.metadata, deletionTimestamp: new Date().toISOString(), deletionGracePeriodSeconds: 30 } });
  await flush(20);
  assert.equal(getPod('job'), undefined);
  await agent.stop();
});

test('a restarted agent adopts the pods of its nodes: IPs kept, not reused, statuses unchanged', async () => {
  const first = await setup();
  await first.createPod('a', {});
  await first.createPod('b', {});
  const ipA = status(first.getPod('a')).podIP;
  const ipB = status(first.getPod('b')).podIP;
  await first.agent.stop();
  const clock = new FakeClock();
  const informers = new FakeInformerFactory(first.clientset);
  const agent = new NodeAgent({ clientset: first.clientset, informers, clock, nodes: 2, leaseRenewIntervalMs: 1000, statusUpdateFrequencyMs: 1000 });
  await agent.start();
  informers.start();
  await flush(20);
  assert.equal(status(first.getPod('a')).podIP, ipA);
  assert.equal(status(first.getPod('a')).phase, 'Running');
  await first.clientset.resource(PODS).create('default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'c', namespace: 'default' }, spec: { nodeName: 'kubelite-node-0', containers: [{ name: 'c', image: 'nginx' }] } });
  await flush(20);
  const ipC = status(first.getPod('c')).podIP;
  assert.equal(status(first.getPod('c')).phase, 'Running');
  assert.ok(ipC !== ipA && ipC !== ipB, `${String(ipC)} vs ${String(ipA)}, ${String(ipB)}`);
  await agent.stop();
});

