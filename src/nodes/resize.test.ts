// In-place resize on the simulated nodes: allocated when it fits (containerStatuses[].resources
// follow), PodResizePending Infeasible/Deferred otherwise, RestartContainer restarts the container.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, Pod } from '../api/types.js';
import { cond, PODS, setup, status } from './agent.testutil.js';
import { allocationOf, containersToRestart, decideResize, requestsOf } from './resize.js';

const app = (cpu: string, memory: string, extra: Partial<Container> = {}): Container => ({ name: 'app', image: 'nginx', resources: { requests: { cpu, memory }, limits: { cpu, memory } }, ...extra });
const withApp = (c: Container): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [c] } });

test('the kubelet decision: Infeasible over the allocatable (memory first), Deferred over what the other pods leave', () => {
  const alloc = { cpu: 4000, memory: 8 * 2 ** 30 };
  assert.deepEqual(decideResize({ cpu: 5000, memory: 1 }, { cpu: 0, memory: 0 }, alloc), { allocate: false, reason: 'Infeasible', message: "Node didn't have enough capacity: cpu, requested: 5000, capacity: 4000" });
  assert.equal((decideResize({ cpu: 5000, memory: 9 * 2 ** 30 }, { cpu: 0, memory: 0 }, alloc) as { message: string }).message, `Node didn't have enough capacity: memory, requested: ${9 * 2 ** 30}, capacity: ${8 * 2 ** 30}`);
  assert.deepEqual(decideResize({ cpu: 1500, memory: 1 }, { cpu: 3000, memory: 0 }, alloc), { allocate: false, reason: 'Deferred', message: "Node didn't have enough resource: cpu, requested: 1500, used: 3000, capacity: 4000" });
  assert.deepEqual(decideResize({ cpu: 1000, memory: 1 }, { cpu: 3000, memory: 0 }, alloc), { allocate: true });
  assert.deepEqual(requestsOf(allocationOf(withApp(app('500m', '64Mi')))), { cpu: 500, memory: 64 * 2 ** 20 });
});

test('only a changed resource whose resizePolicy is RestartContainer restarts the container', () => {
  const policy = { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }, { resourceName: 'memory', restartPolicy: 'RestartContainer' }] };
  const before = withApp(app('500m', '64Mi', policy));
  assert.deepEqual(containersToRestart(before, allocationOf(before), allocationOf(withApp(app('1', '64Mi', policy)))), []);
  assert.deepEqual(containersToRestart(before, allocationOf(before), allocationOf(withApp(app('500m', '128Mi', policy)))), ['app']);
});

test('through the agent: a resize that fits is actuated (resources, a restart for RestartContainer); one that does not is pending', async () => {
  const { agent, clientset, createPod, getPod, tick } = await setup({ cpu: '4', memory: '8Gi' });
  const policy = { resizePolicy: [{ resourceName: 'memory', restartPolicy: 'RestartContainer' }] };
  await createPod('r', { containers: [app('500m', '64Mi', policy)] });
  await createPod('other', { containers: [{ ...app('2', '64Mi'), name: 'o' }] });
  const resize = async (cpu: string, memory: string) => {
    const p = getPod('r')!;
    await clientset.resource(PODS).update('default', { ...p, spec: { ...p.spec, containers: [app(cpu, memory, policy)] } });
    await tick(200);
  };
  const c0 = () => status(getPod('r')).containerStatuses![0]!;
  assert.deepEqual(c0().resources, { requests: { cpu: '500m', memory: '64Mi' }, limits: { cpu: '500m', memory: '64Mi' } });

  await resize('1', '64Mi');
  assert.deepEqual(c0().resources!.requests, { cpu: '1', memory: '64Mi' });
  assert.equal(c0().restartCount, 0);
  assert.equal(cond(getPod('r'), 'PodResizePending'), undefined);

  await resize('1', '128Mi');
  assert.equal(c0().restartCount, 1, 'memory with RestartContainer restarts it');
  assert.ok(c0().state!.running);

  await resize('6', '128Mi');
  assert.deepEqual([cond(getPod('r'), 'PodResizePending')?.reason, cond(getPod('r'), 'PodResizePending')?.message], ['Infeasible', "Node didn't have enough capacity: cpu, requested: 6000, capacity: 4000"]);
  assert.deepEqual(c0().resources!.requests, { cpu: '1', memory: '128Mi' }, 'the old allocation stays');

  await resize('3', '128Mi');
  assert.deepEqual([cond(getPod('r'), 'PodResizePending')?.reason, cond(getPod('r'), 'PodResizePending')?.message], ['Deferred', "Node didn't have enough resource: cpu, requested: 3000, used: 2000, capacity: 4000"]);
  // the other pod goes: the deferred resize is allocated
  await clientset.resource(PODS).delete('default', 'other', { gracePeriodSeconds: 0 });
  await tick(200);
  assert.equal(cond(getPod('r'), 'PodResizePending'), undefined);
  assert.deepEqual(c0().resources!.requests, { cpu: '3', memory: '128Mi' });
  await agent.stop();
});
