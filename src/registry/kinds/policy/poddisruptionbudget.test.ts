// policy PodDisruptionBudget: validation with Kubernetes' paths and messages, generation on spec
// changes, status writes (the spec kept, metav1 Conditions validated), and kubectl's columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, ctxFor, edit, kindOf, lines, strategyFor, update } from '../kinds.testutil.js';

const pdb = (spec: KubeObject): KubeObject => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p' }, spec });
/** As the store holds it after its create (with a resourceVersion). */
function stored(input: KubeObject): KubeObject {
  const { obj } = create(input);
  (obj.metadata as KubeObject).resourceVersion = '1';
  return obj;
}
const errorsOf = (spec: KubeObject): string[] => lines(create(pdb(spec)).errors);

test('invalid budgets: Kubernetes field paths and messages', () => {
  assert.deepEqual(errorsOf({ minAvailable: 1, selector: { matchLabels: { app: 'web' } } }), []);
  assert.deepEqual(errorsOf({}), []);
  const table: Array<[KubeObject, string[]]> = [
    [{ minAvailable: 1, maxUnavailable: '10%' }, [
      'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    ]],
    [{ minAvailable: -1 }, ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
    [{ maxUnavailable: '101%' }, ['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%']],
    [{ minAvailable: 'half' }, ["spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"half\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"]],
    [{ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }, ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]],
    [{ unhealthyPodEvictionPolicy: 'Never' }, ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"']],
  ];
  for (const [spec, expected] of table) assert.deepEqual(errorsOf(spec), expected, JSON.stringify(spec));
});

test('the store tracks its generation (the eviction REST compares it with status.observedGeneration); status writes keep the spec and validate conditions and counts', () => {
  const s = strategyFor('policy', 'poddisruptionbudgets');
  assert.equal(s.tracksGeneration, true);
  assert.equal(s.hasStatus, true);
  const obj = stored(pdb({ minAvailable: 1 }));
  const statusWrite = edit(obj, (o) => {
    o.spec.minAvailable = 5;
    o.status = { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: -2, conditions: [{ type: 'DisruptionAllowed', status: 'Maybe', lastTransitionTime: null, reason: 'bad reason' }, { type: 'DisruptionAllowed', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'Ok' }] };
  });
  s.prepareForStatusUpdate!(statusWrite, obj, ctxFor(kindOf(obj)));
  assert.equal((statusWrite.spec as KubeObject).minAvailable, 1);
  assert.deepEqual(lines(s.validateStatusUpdate!(statusWrite, obj, ctxFor(kindOf(obj)))), [
    'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    'status.conditions[0].lastTransitionTime: Required value: must be set',
    "status.conditions[0].reason: Invalid value: \"bad reason\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
    'status.conditions[1].type: Duplicate value: "DisruptionAllowed"',
    'status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0',
    'status.expectedPods: Invalid value: -2: must be greater than or equal to 0',
  ]);
  // A selector with a bad label value is accepted on update when the old one had one too.
  const legacy = edit(obj, (o) => (o.spec.selector = { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value'] }] }));
  assert.equal(update(edit(legacy, (o) => (o.spec.minAvailable = 2)), legacy).errors.length, 0);
  assert.equal(update(legacy, obj).errors.length, 1);
});

test('kubectl get pdb: NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE', () => {
  const { obj } = create(pdb({ maxUnavailable: '25%' }));
  const printer = printerOf(kindOf(obj));
  assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
  assert.deepEqual(printer.cells(edit(obj, (o) => (o.status = { disruptionsAllowed: 2 })), Date.now()).slice(0, 4), ['p', 'N/A', '25%', 2]);
});
