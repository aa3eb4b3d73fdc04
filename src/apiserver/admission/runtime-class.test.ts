import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RuntimeClass } from '../../api/types.js';
import { attrsOf, memoryObjects, refusal } from './admission.testutil.js';
import { RuntimeClassAdmission } from './runtime-class.js';
import { mergeTolerations } from './tolerations.js';

const gvisor: RuntimeClass = {
  metadata: { name: 'gvisor' },
  handler: 'runsc',
  overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
  scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
};
const plain: RuntimeClass = { metadata: { name: 'plain' }, handler: 'runc' };
const pod = (spec: Record<string, unknown>) => ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } as Record<string, unknown> });

describe('RuntimeClass admission', () => {
  const plugin = new RuntimeClassAdmission(memoryObjects([gvisor, plain]));
  const run = async (p: ReturnType<typeof pod>) => {
    await plugin.admit(attrsOf('pods', { object: p }));
    await plugin.validate(attrsOf('pods', { object: p }));
  };

  it("gives the pod its class's overhead, node selector and tolerations", async () => {
    const p = pod({ runtimeClassName: 'gvisor', nodeSelector: { disk: 'ssd' }, tolerations: [{ key: 'a', operator: 'Exists' }] });
    await run(p);
    assert.deepEqual(p.spec.overhead, { cpu: '250m', memory: '120Mi' });
    assert.deepEqual(p.spec.nodeSelector, { disk: 'ssd', sandbox: 'gvisor' });
    assert.deepEqual(p.spec.tolerations, [{ key: 'a', operator: 'Exists' }, { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
    // The same overhead written otherwise is the same overhead.
    await run(pod({ runtimeClassName: 'gvisor', overhead: { cpu: '0.25', memory: '120Mi' } }));
    const none = pod({ runtimeClassName: 'plain' });
    await run(none);
    assert.equal(none.spec.overhead, undefined);
  });

  it('refuses what Kubernetes refuses, with its messages', async () => {
    assert.equal(await refusal(run(pod({ runtimeClassName: 'kata' }))), 'pods "p" is forbidden: pod rejected: RuntimeClass "kata" not found');
    assert.equal(await refusal(run(pod({ runtimeClassName: 'gvisor', overhead: { cpu: '1' } }))), `pods "p" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`);
    assert.equal(await refusal(run(pod({ overhead: { cpu: '1' } }))), 'pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    assert.equal(
      await refusal(run(pod({ runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'kata' } }))),
      'pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = kata',
    );
  });

  it('leaves updates and pods without a class alone', async () => {
    const p = pod({});
    await run(p);
    assert.deepEqual(p.spec, { containers: [] });
    await plugin.admit(attrsOf('pods', { operation: 'UPDATE', object: pod({ runtimeClassName: 'kata' }), oldObject: pod({}) }));
  });
});

describe('mergeTolerations', () => {
  it('drops a toleration another covers, keeps the first of equal ones', () => {
    const all = { operator: 'Exists' };
    const key = { key: 'k', operator: 'Exists', effect: 'NoSchedule' };
    const eq = { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' };
    assert.deepEqual(mergeTolerations([eq], [key]), [key]);
    assert.deepEqual(mergeTolerations([key, eq], [all]), [all]);
    assert.deepEqual(mergeTolerations([eq], [{ ...eq }]), [eq]);
    const timed = (s: number) => ({ key: 'n', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
    assert.deepEqual(mergeTolerations([timed(300)], [timed(60)]), [timed(300)]);
  });
});
