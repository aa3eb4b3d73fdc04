import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod, Taint } from '../../api/types.js';
import { fakeControllerContext } from '../../client/fake/index.js';
import { obj } from '../common/testutil.js';
import { PODS, TaintEvictionController, tolerationTime } from './controller.js';

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };

test('how long a pod may stay on a node with NoExecute taints', () => {
  const cases: { name: string; taints: Taint[]; tolerations: object[]; want: number | undefined }[] = [
    { name: 'no toleration', taints: [unreachable], tolerations: [], want: undefined },
    { name: 'the default 300 s', taints: [unreachable], tolerations: [{ key: unreachable.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }], want: 300_000 },
    { name: 'for ever', taints: [unreachable], tolerations: [{ operator: 'Exists' }], want: -1 },
    { name: 'the smallest of the matching', taints: [unreachable, notReady], tolerations: [{ key: unreachable.key, operator: 'Exists', tolerationSeconds: 60 }, { key: notReady.key, operator: 'Exists', tolerationSeconds: 10 }], want: 10_000 },
    { name: 'one taint not tolerated', taints: [unreachable, notReady], tolerations: [{ key: unreachable.key, operator: 'Exists' }], want: undefined },
    { name: 'negative seconds are 0', taints: [notReady], tolerations: [{ key: notReady.key, operator: 'Exists', tolerationSeconds: -5 }], want: 0 },
  ];
  for (const k of cases) assert.equal(tolerationTime(k.taints, k.tolerations as never), k.want, k.name);
});

test('a pod that does not tolerate the taint is evicted: DisruptionTarget first, then the delete; tolerated ones are scheduled or left', async () => {
  const pod = (name: string, tolerations: object[] = []) => obj('v1', 'Pod', name, { namespace: 'default', spec: { nodeName: 'n', containers: [], tolerations }, status: { phase: 'Running' } });
  const ctx = fakeControllerContext({ objects: [pod('evict'), pod('later', [{ key: unreachable.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]), pod('stays', [{ operator: 'Exists' }])] });
  const c = new TaintEvictionController(ctx);
  const abort = new AbortController();
  const running = c.run(1, abort.signal);
  try {
    for (const name of ['evict', 'later', 'stays']) c.processPod(ctx.clientset.tracker.get(PODS, 'default', name) as Pod, [unreachable]);
    assert.deepEqual([...c.scheduled.keys()].sort(), ['default/evict', 'default/later']);
    assert.equal(c.scheduled.get('default/later')!.fireAt - c.scheduled.get('default/later')!.createdAt, 300_000);
    await c.evict('default/evict', ctx.now());
    assert.deepEqual(ctx.clientset.actionStrings({ writesOnly: true }), ['update pods/status default/evict', 'delete pods default/evict']);
    const updated = ctx.clientset.actions.find((a) => a.verb === 'update')!.object as Pod;
    const cond = updated.status?.conditions?.find((x) => x?.type === 'DisruptionTarget');
    assert.deepEqual([cond?.status, cond?.reason, cond?.message], ['True', 'DeletionByTaintManager', 'Taint manager: deleting due to NoExecute taint']);
    assert.ok(ctx.events.some((e) => e.reason === 'TaintManagerEviction' && e.message === 'Marking for deletion Pod default/evict'));
    // the taint goes: the scheduled deletion is cancelled
    c.processPod(ctx.clientset.tracker.get(PODS, 'default', 'later') as Pod, []);
    assert.equal(c.scheduled.has('default/later'), false);
    assert.ok(ctx.events.some((e) => e.message === 'Cancelling deletion of Pod default/later'));
  } finally {
    abort.abort();
    await running;
  }
});
