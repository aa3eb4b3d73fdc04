import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../client/clock.js';
import type { Pod } from '../api/types.js';
import { SchedulingQueue } from './queue.js';

const pod = (name: string, priority = 0): Pod => ({ metadata: { namespace: 'ns', name }, spec: { priority } });

test('queue: priority then arrival order', () => {
  const q = new SchedulingQueue({ clock: new ManualClock() });
  q.add(pod('a'));
  q.add(pod('b', 10));
  q.add(pod('c'));
  q.add(pod('d', 10));
  assert.deepEqual([q.tryPop()?.key, q.tryPop()?.key, q.tryPop()?.key, q.tryPop()?.key, q.tryPop()], ['ns/b', 'ns/d', 'ns/a', 'ns/c', undefined]);
  q.close();
});

test('queue: back-off 1 s doubling to 10 s; cluster events move unschedulable pods; 60 s flush', () => {
  const clock = new ManualClock();
  const q = new SchedulingQueue({ clock });
  assert.deepEqual([1, 2, 3, 4, 5, 6].map((n) => q.backoffDuration(n)), [1000, 2000, 4000, 8000, 10000, 10000]);
  q.add(pod('a'));
  assert.equal(q.tryPop()?.key, 'ns/a');
  q.addUnschedulable('ns/a');
  assert.deepEqual(q.stats(), { active: 0, backoff: 0, unschedulable: 1, inFlight: 0 });
  // A cluster event during the back-off: to the back-off queue, then active when it ends.
  q.moveAllToActiveOrBackoff();
  assert.deepEqual(q.stats(), { active: 0, backoff: 1, unschedulable: 0, inFlight: 0 });
  clock.advance(999);
  assert.equal(q.tryPop(), undefined);
  clock.advance(1);
  assert.equal(q.tryPop()?.key, 'ns/a');
  // Second failure: 2 s back-off; a cluster event after it has passed moves it straight to active.
  q.addUnschedulable('ns/a');
  clock.advance(2500);
  q.moveAllToActiveOrBackoff();
  assert.equal(q.tryPop()?.key, 'ns/a');
  // A cluster event during the pod's own cycle sends it to back-off rather than unschedulable.
  q.moveAllToActiveOrBackoff();
  q.addUnschedulable('ns/a');
  assert.equal(q.stats().backoff, 1);
  clock.advance(4000);
  assert.equal(q.tryPop()?.key, 'ns/a');
  // Without events, the periodic flush brings it back after 60 s.
  q.addUnschedulable('ns/a');
  assert.equal(q.stats().unschedulable, 1);
  clock.advance(30_000);
  assert.equal(q.stats().unschedulable, 1);
  clock.advance(31_000);
  assert.equal(q.tryPop()?.key, 'ns/a');
  // An update of an unschedulable pod requeues it; a delete forgets it.
  q.addUnschedulable('ns/a');
  clock.advance(20_000);
  q.add(pod('a'));
  assert.equal(q.tryPop()?.key, 'ns/a');
  q.addUnschedulable('ns/a');
  q.delete('ns/a');
  assert.deepEqual(q.stats(), { active: 0, backoff: 0, unschedulable: 0, inFlight: 0 });
  q.close();
});

test('queue: pop waits for a pod; close releases waiters', async () => {
  const q = new SchedulingQueue({ clock: new ManualClock() });
  const p = q.pop();
  q.add(pod('x'));
  assert.equal((await p)?.key, 'ns/x');
  const w = q.pop();
  q.close();
  assert.equal(await w, undefined);
});

test('queue: an unschedulable pod stays so when only its status, resourceVersion or managedFields change (isPodUpdated)', () => {
  const clock = new ManualClock();
  const q = new SchedulingQueue({ clock });
  const before: Pod = { metadata: { namespace: 'ns', name: 'a', resourceVersion: '5', labels: { app: 'x' } }, spec: { priority: 0, containers: [{ name: 'c', image: 'i' }] } };
  q.add(before);
  assert.equal(q.tryPop()?.key, 'ns/a');
  q.addUnschedulable('ns/a');
  clock.advance(5000);
  // The scheduler's own PodScheduled=False (a status write): no new attempt.
  const marked: Pod = { ...before, metadata: { ...before.metadata, resourceVersion: '6', generation: 2, managedFields: [{ manager: 'kube-scheduler' }] }, status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } };
  q.add(marked, before);
  assert.deepEqual(q.stats(), { active: 0, backoff: 0, unschedulable: 1, inFlight: 0 });
  // A cluster event still moves it, with the newer object.
  q.moveAllToActiveOrBackoff();
  const again = q.tryPop();
  assert.equal(again?.pod, marked);
  q.addUnschedulable('ns/a');
  clock.advance(5000);
  // A change of what scheduling reads (a label, a toleration) does make it try again.
  const relabelled: Pod = { ...marked, metadata: { ...marked.metadata, resourceVersion: '7', labels: { app: 'y' } } };
  q.add(relabelled, marked);
  assert.equal(q.tryPop()?.pod, relabelled);
  q.addUnschedulable('ns/a');
  clock.advance(5000);
  const claimed: Pod = { ...relabelled, status: { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'a-gpu' }] } };
  q.add(claimed, relabelled);
  assert.equal(q.tryPop()?.pod, claimed);
  q.close();
});
