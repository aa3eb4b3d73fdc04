// autoscaling HorizontalPodAutoscaler: validation with Kubernetes' paths and messages, the
// minReplicas 0 rule on update, the alpha tolerance dropped, status writes, and kubectl's columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, ctxFor, edit, kindOf, lines, strategyFor, update } from '../kinds.testutil.js';
import { formatHPAMetrics } from './horizontalpodautoscaler.js';

const hpa = (spec: KubeObject): KubeObject => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, ...spec } });
/** As the store holds it after its create (with a resourceVersion). */
function stored(input: KubeObject): KubeObject {
  const { obj } = create(input);
  (obj.metadata as KubeObject).resourceVersion = '1';
  return obj;
}
const errorsOf = (spec: KubeObject): string[] => lines(create(hpa(spec)).errors);
const cpu = (target: KubeObject) => ({ type: 'Resource', resource: { name: 'cpu', target } });
const rules = (r: KubeObject) => ({ behavior: { scaleUp: r } });

test('a minimal HPA is valid', () => {
  assert.deepEqual(errorsOf({}), []);
});

test('invalid HPAs: Kubernetes field paths and messages', () => {
  const table: Array<[KubeObject, string[]]> = [
    [{ minReplicas: 0 }, ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', 'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas']],
    [{ maxReplicas: 0 }, ['spec.maxReplicas: Invalid value: 0: must be greater than 0', 'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`']],
    [{ scaleTargetRef: { kind: '..', name: 'a/b%' } }, ["spec.scaleTargetRef.kind: Invalid value: \"..\": may not be '..'", "spec.scaleTargetRef.name: Invalid value: \"a/b%\": may not contain '/'", "spec.scaleTargetRef.name: Invalid value: \"a/b%\": may not contain '%'"]],
    [{ scaleTargetRef: {} }, ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']],
    [{ metrics: [{ type: 'Bogus' }] }, ['spec.metrics[0].type: Unsupported value: "Bogus": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"', 'spec.metrics[0].type: Unsupported value: "Bogus": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"']],
    [{ metrics: [{ type: 'Resource' }] }, ['spec.metrics[0].resource: Required value: must populate information for the given metric source']],
    [{ metrics: [{ ...cpu({ type: 'Utilization', averageUtilization: 50 }), pods: { metric: { name: 'x' }, target: { type: 'AverageValue', averageValue: '1' } } }] }, ['spec.metrics[0].pods: Forbidden: must populate the given metric source only']],
    [{ metrics: [cpu({ type: 'Utilization' })] }, ['spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization']],
    [{ metrics: [cpu({ type: 'Utilization', averageUtilization: 0, averageValue: '1' })] }, ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0', 'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization']],
    [{ metrics: [{ type: 'Resource', resource: { target: { type: 'Percent', averageValue: '-1' } } }] }, [
      'spec.metrics[0].resource.name: Required value: must specify a resource name',
      'spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].resource.target.averageValue: Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1", Format:"DecimalSI"}: must be positive',
    ]],
    [{ metrics: [{ type: 'Pods', pods: { metric: {}, target: {} } }] }, [
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].pods.target.type: Required value: must specify a metric target type',
      'spec.metrics[0].pods.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
      'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
    ]],
    [{ metrics: [{ type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, metric: { name: 'm' }, target: { type: 'Value' } } }] }, ['spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue']],
    [{ metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '2' } } }] }, ['spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target']],
    [{ metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', container: 'Bad_Name', target: { type: 'Utilization', averageUtilization: 10 } } }] }, [
      "spec.metrics[0].containerResource.container: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
    [rules({ stabilizationWindowSeconds: 3601, selectPolicy: 'Avg', policies: [{ type: 'Seconds', value: 0, periodSeconds: 1801 }] }), [
      'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Avg": supported values: "Disabled", "Max", "Min"',
      'spec.behavior.scaleUp.policies[0].type: Unsupported value: "Seconds": supported values: "Percent", "Pods"',
      'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
      'spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
    ]],
    [rules({ stabilizationWindowSeconds: -1, policies: [] }), ['spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero', 'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy']],
  ];
  for (const [spec, expected] of table) assert.deepEqual(errorsOf(spec), expected, JSON.stringify(spec));
});

test('a v2 write drops autoscaling/v1\'s round-trip annotations, as the v2 conversion does', () => {
  const { obj } = create({ ...hpa({}), metadata: { name: 'h', annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[]', 'autoscaling.alpha.kubernetes.io/behavior': '{}', keep: 'x' } } });
  assert.deepEqual((obj.metadata as KubeObject).annotations, { keep: 'x' });
});

test('minReplicas 0 stays allowed on update only when the old object has it', () => {
  const scaleToZero = { minReplicas: 0, metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } }] };
  const obj = stored(hpa({}));
  assert.deepEqual(lines(update(edit(obj, (o) => Object.assign(o.spec, scaleToZero)), obj).errors), ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']);
  const zero = { ...obj, spec: { ...(obj.spec as KubeObject), ...scaleToZero } };
  assert.deepEqual(lines(update(edit(zero, (o) => (o.spec.maxReplicas = 4)), zero).errors), []);
});

test('tolerance (HPAConfigurableTolerance, off) is dropped unless the old object has one; status writes keep the spec', () => {
  const obj = stored(hpa({ behavior: { scaleUp: { tolerance: '0.1' } } }));
  assert.equal(((obj.spec as any).behavior.scaleUp as KubeObject).tolerance, undefined);
  assert.equal((obj.spec as any).behavior.scaleDown.selectPolicy, 'Max', 'defaults filled the behavior');
  const withTolerance = edit(obj, (o) => (o.spec.behavior.scaleUp.tolerance = '0.2'));
  const kept = update(edit(withTolerance, (o) => (o.spec.maxReplicas = 5)), withTolerance).obj;
  assert.equal((kept.spec as any).behavior.scaleUp.tolerance, '0.2');
  const s = strategyFor('autoscaling', 'horizontalpodautoscalers');
  assert.equal(s.tracksGeneration, false);
  const statusWrite = edit(obj, (o) => {
    o.spec.maxReplicas = 99;
    o.status = { currentReplicas: -1, desiredReplicas: 2 };
  });
  s.prepareForStatusUpdate!(statusWrite, obj, ctxFor(kindOf(obj)));
  assert.equal((statusWrite.spec as KubeObject).maxReplicas, 3);
  assert.deepEqual(lines(s.validateStatusUpdate!(statusWrite, obj, ctxFor(kindOf(obj)))), ['status.currentReplicas: Invalid value: -1: must be greater than or equal to 0']);
});

test('kubectl get hpa: NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, TARGETS as kubectl 1.33 prints them', () => {
  const { obj } = create(hpa({ metrics: [cpu({ type: 'Utilization', averageUtilization: 50 })] }));
  const printer = printerOf(kindOf(obj));
  assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
  assert.deepEqual(printer.cells(obj, Date.now()).slice(0, 6), ['h', 'Deployment/web', 'cpu: <unknown>/50%', '1', 3, 0]);
  const specs = [
    cpu({ type: 'Utilization', averageUtilization: 50 }),
    { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } },
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    { type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } } },
  ];
  const statuses = [
    { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12, averageValue: '100m' } } },
    { type: 'Resource', resource: { name: 'memory', current: { averageValue: '512Mi' } } },
  ];
  assert.equal(formatHPAMetrics(specs, statuses), 'cpu: 12%/50%, memory: 512Mi/1Gi + 2 more...');
  assert.equal(formatHPAMetrics(specs.slice(2), []), '<unknown>/10, <unknown>/30 (avg)');
  assert.equal(formatHPAMetrics([], []), '<none>');
  assert.equal(formatHPAMetrics(specs.slice(2, 3), [{ type: 'Pods', pods: { metric: { name: 'qps' }, current: {} } }]), '<nil>/10');
  assert.equal(printer.cells(edit(obj, (o) => delete o.spec.minReplicas), Date.now())[3], '<unset>');
});
