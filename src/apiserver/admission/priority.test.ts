import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PriorityClass } from '../../api/types.js';
import { SYSTEM_PRIORITY_CLASSES } from '../../registry/kinds/scheduling/system-priority-classes.js';
import { attrsOf, memoryObjects, refusal } from './admission.testutil.js';
import { PriorityAdmission } from './priority.js';

const pc = (name: string, value: number, more: Partial<PriorityClass> = {}): PriorityClass => ({ metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...more });
const pod = (spec: Record<string, unknown>) => ({ metadata: { name: 'p' }, spec: { containers: [], ...spec } as Record<string, unknown> });

describe('Priority admission', () => {
  const classes = [...SYSTEM_PRIORITY_CLASSES.map((c) => ({ ...c, preemptionPolicy: 'PreemptLowerPriority' })), pc('gold', 1000, { preemptionPolicy: 'Never' })];
  const plugin = new PriorityAdmission(memoryObjects(classes));

  it('resolves a named class to its value and preemption policy', async () => {
    const critical = pod({ priorityClassName: 'system-node-critical' });
    await plugin.admit(attrsOf('pods', { object: critical }));
    assert.equal(critical.spec.priority, 2000001000);
    assert.equal(critical.spec.preemptionPolicy, 'PreemptLowerPriority');
    const gold = pod({ priorityClassName: 'gold' });
    await plugin.admit(attrsOf('pods', { object: gold }));
    assert.deepEqual([gold.spec.priority, gold.spec.preemptionPolicy], [1000, 'Never']);
  });

  it('gives a pod naming no class priority 0 and PreemptLowerPriority, or the global default class', async () => {
    const plain = pod({});
    await plugin.admit(attrsOf('pods', { object: plain }));
    assert.deepEqual([plain.spec.priority, plain.spec.preemptionPolicy, plain.spec.priorityClassName], [0, 'PreemptLowerPriority', undefined]);
    // Two defaults (a race): the lower value wins.
    const withDefault = new PriorityAdmission(memoryObjects([pc('high', 500, { globalDefault: true }), pc('low', 100, { globalDefault: true, preemptionPolicy: 'Never' })]));
    const defaulted = pod({});
    await withDefault.admit(attrsOf('pods', { object: defaulted }));
    assert.deepEqual([defaulted.spec.priority, defaulted.spec.preemptionPolicy, defaulted.spec.priorityClassName], [100, 'Never', 'low']);
  });

  it('refuses an unknown class and a priority or policy that differs from the computed one, as Kubernetes words it', async () => {
    assert.equal(await refusal(plugin.admit(attrsOf('pods', { object: pod({ priorityClassName: 'silver' }) }))), 'pods "p" is forbidden: no PriorityClass with name silver was found');
    assert.equal(
      await refusal(plugin.admit(attrsOf('pods', { object: pod({ priority: 5 }) }))),
      'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
    assert.equal(
      await refusal(plugin.admit(attrsOf('pods', { object: pod({ priorityClassName: 'gold', preemptionPolicy: 'PreemptLowerPriority' }) }))),
      'pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    );
    const same = pod({ priorityClassName: 'gold', priority: 1000 });
    await plugin.admit(attrsOf('pods', { object: same }));
    assert.equal(same.spec.priority, 1000);
  });

  it('keeps the priority and policy set at create on an update that leaves them out', async () => {
    const updated = pod({});
    await plugin.admit(attrsOf('pods', { operation: 'UPDATE', object: updated, oldObject: pod({ priority: 7, preemptionPolicy: 'Never' }) }));
    assert.deepEqual([updated.spec.priority, updated.spec.preemptionPolicy], [7, 'Never']);
  });

  it('allows one global default class', async () => {
    const withDefault = new PriorityAdmission(memoryObjects([pc('first', 10, { globalDefault: true })]));
    assert.equal(
      await refusal(withDefault.validate(attrsOf('scheduling.k8s.io/priorityclasses', { object: pc('second', 20, { globalDefault: true }) }))),
      'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    );
    await withDefault.validate(attrsOf('scheduling.k8s.io/priorityclasses', { operation: 'UPDATE', object: pc('first', 10, { globalDefault: true }), oldObject: pc('first', 10) }));
    assert.equal(
      await refusal(withDefault.validate(attrsOf('scheduling.k8s.io/priorityclasses', { operation: 'UPDATE', name: 'other', object: pc('other', 5, { globalDefault: true }), oldObject: pc('other', 5) }))),
      'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    );
  });
});
