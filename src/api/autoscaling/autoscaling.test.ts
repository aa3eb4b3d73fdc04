// HorizontalPodAutoscaler between autoscaling/v2 and autoscaling/v1: the round-trip annotations
// as kube-apiserver writes them, round trips in both directions, the defaults of each version,
// and protobuf round trips of the autoscaling and policy kinds (and the old groups' Scale).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeParsed } from '../../machinery/codec/json.js';
import { decodeProtobuf, encodeProtobuf } from '../../machinery/codec/protobuf.js';
import * as appsV1beta2 from '../apps/v1beta2.js';
import * as extensionsV1beta1 from '../extensions/v1beta1.js';
import type { KubeObject } from '../schema/kind.js';
import type { StructType } from '../schema/dsl.js';
import * as policyV1 from '../policy/v1.js';
import { autoscalingV1Conversion, BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION, METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION } from './conversion.js';
import { defaultHorizontalPodAutoscalerV1, defaultHorizontalPodAutoscalerV2 } from './defaults.js';
import * as v1 from './v1.js';
import * as v2 from './v2.js';

const { toHub, fromHub } = autoscalingV1Conversion.horizontalPodAutoscaler;
const canonical = (type: StructType, obj: unknown): KubeObject => decodeParsed<KubeObject>(structuredClone(obj), null, type, 'Strict', undefined, JSON.stringify(obj)).object;

const selector = { matchLabels: { b: '2', a: '1' } };
const full: KubeObject = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'h', namespace: 'ns', annotations: { keep: 'me' } },
  spec: {
    scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
    minReplicas: 2,
    maxReplicas: 9,
    metrics: [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'qps', selector }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Object', object: { describedObject: { kind: 'Service', name: 'svc', apiVersion: 'v1' }, target: { type: 'Value', value: '5' }, metric: { name: 'hits' } } },
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 }, container: 'app' } },
    ],
    behavior: {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
      scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] },
    },
  },
  status: {
    observedGeneration: 3,
    currentReplicas: 2,
    desiredReplicas: 3,
    currentMetrics: [
      { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '250m', averageUtilization: 55 } } },
      { type: 'External', external: { metric: { name: 'queue' }, current: { value: '7' } } },
    ],
    conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-02T03:04:05Z', reason: 'ReadyForNewScale', message: 'ok' }],
  },
};

test('v2 → v1: the CPU target in targetCPUUtilizationPercentage, everything else in the annotations as Kubernetes writes them', () => {
  const out = fromHub(full);
  assert.equal(out.apiVersion, 'autoscaling/v1');
  assert.deepEqual(out.spec, { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 9, targetCPUUtilizationPercentage: 60 });
  assert.deepEqual(out.status, { observedGeneration: 3, currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 55 });
  const a = (out.metadata as { annotations: Record<string, string> }).annotations;
  assert.equal(a.keep, 'me');
  assert.equal(
    a[METRIC_SPECS_ANNOTATION],
    '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}},' +
      '{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10","selector":{"matchLabels":{"a":"1","b":"2"}}}},' +
      '{"type":"Object","object":{"target":{"kind":"Service","name":"svc","apiVersion":"v1"},"metricName":"hits","targetValue":"5"}},' +
      '{"type":"External","external":{"metricName":"queue","targetAverageValue":"30"}},' +
      '{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":70,"container":"app"}}]',
  );
  assert.equal(
    a[METRIC_STATUSES_ANNOTATION],
    '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":55,"currentAverageValue":"250m"}},{"type":"External","external":{"metricName":"queue","currentValue":"7"}}]',
  );
  assert.equal(a[CONDITIONS_ANNOTATION], '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-02T03:04:05Z","reason":"ReadyForNewScale","message":"ok"}]');
  assert.equal(
    a[BEHAVIOR_ANNOTATION],
    '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}],"Tolerance":null},' +
      '"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":50,"PeriodSeconds":60}],"Tolerance":null}}',
  );
  // Conversions do not touch their input.
  assert.equal((full.metadata as { annotations: Record<string, string> }).annotations[METRIC_SPECS_ANNOTATION], undefined);
});

test('v2 → v1 → v2 is the identity (the CPU metric moves last, as Kubernetes appends it)', () => {
  const back = toHub(fromHub(full));
  const spec = full.spec as { metrics: unknown[] };
  const expected = { ...full, spec: { ...spec, metrics: [...spec.metrics.slice(1), spec.metrics[0]] } };
  assert.deepEqual(canonical(v2.HorizontalPodAutoscaler, back), canonical(v2.HorizontalPodAutoscaler, expected));
});

test('v1 → v2 → v1 is the identity, annotations included', () => {
  const v1obj: KubeObject = {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h', annotations: { [METRIC_SPECS_ANNOTATION]: '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]' } },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 40 },
    status: { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 12 },
  };
  const hub = toHub(v1obj);
  assert.deepEqual((hub.spec as { metrics: unknown }).metrics, [
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 40 } } },
  ]);
  assert.equal((hub.metadata as KubeObject).annotations, undefined);
  const again = fromHub(hub);
  assert.deepEqual(canonical(v1.HorizontalPodAutoscaler, again), canonical(v1.HorizontalPodAutoscaler, {
    ...v1obj,
    metadata: { name: 'h', annotations: { ...(v1obj.metadata as { annotations: object }).annotations, [METRIC_STATUSES_ANNOTATION]: '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":12,"currentAverageValue":"0"}}]' } },
  }));
});

test('v1 → v2: no metric at all is CPU 80%; malformed and empty annotations are ignored and dropped', () => {
  const hub = toHub({
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h', annotations: { [METRIC_SPECS_ANNOTATION]: 'not json', [BEHAVIOR_ANNOTATION]: '{}', [CONDITIONS_ANNOTATION]: '[' } },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 },
  });
  assert.deepEqual((hub.spec as KubeObject).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  assert.equal((hub.spec as KubeObject).behavior, undefined);
  assert.equal((hub.status as KubeObject).conditions, undefined);
  assert.deepEqual(hub.metadata, { name: 'h' });
  const behavior = toHub({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { annotations: { [BEHAVIOR_ANNOTATION]: '{"scaledown":{"selectpolicy":"Disabled"}}' } }, spec: {} });
  assert.deepEqual((behavior.spec as KubeObject).behavior, { scaleDown: { selectPolicy: 'Disabled' } }, 'encoding/json matches keys case-insensitively');
});

test('v2 defaults: minReplicas 1, CPU 80%, and the unset parts of a behavior from the default rules', () => {
  const obj: KubeObject = { spec: { behavior: { scaleDown: { stabilizationWindowSeconds: 30 }, scaleUp: { policies: [] } } } };
  defaultHorizontalPodAutoscalerV2(obj);
  assert.deepEqual(obj.spec, {
    minReplicas: 1,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    behavior: {
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [] },
      scaleDown: { stabilizationWindowSeconds: 30, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    },
  });
  const empty: KubeObject = { spec: { behavior: {} } };
  defaultHorizontalPodAutoscalerV2(empty);
  assert.deepEqual((empty.spec as KubeObject).behavior, {
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
  });
  const none: KubeObject = { spec: { minReplicas: 0, metrics: [{ type: 'Pods' }] } };
  defaultHorizontalPodAutoscalerV2(none);
  assert.deepEqual(none.spec, { minReplicas: 0, metrics: [{ type: 'Pods' }] });
  const old: KubeObject = { spec: {} };
  defaultHorizontalPodAutoscalerV1(old);
  assert.deepEqual(old.spec, { minReplicas: 1 });
});

test('protobuf round trips: HPA in both versions, PodDisruptionBudget, the old groups\' Scale', () => {
  const pdb = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'p', namespace: 'ns' },
    spec: { minAvailable: '50%', selector, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    status: { observedGeneration: 2, disruptedPods: { a: '2026-01-01T00:00:00Z' }, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 2, lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'SufficientPods', message: '' }] },
  };
  const scale = (apiVersion: string) => ({ apiVersion, kind: 'Scale', metadata: { name: 's' }, spec: { replicas: 3 }, status: { replicas: 2, selector: { app: 'web' }, targetSelector: 'app=web' } });
  const cases: Array<[StructType, KubeObject]> = [
    [v2.HorizontalPodAutoscaler, full],
    [v1.HorizontalPodAutoscaler, fromHub(full)],
    [policyV1.PodDisruptionBudget, pdb],
    [appsV1beta2.Scale, scale('apps/v1beta2')],
    [extensionsV1beta1.Scale, scale('extensions/v1beta1')],
  ];
  for (const [type, obj] of cases) {
    const json = canonical(type, obj);
    const back = decodeProtobuf(encodeProtobuf(json, type), type).object;
    assert.deepEqual(back, json, type.name);
  }
  // MetricSpec's containerResource is field 7, between resource (4) and external (5) in Go order.
  assert.deepEqual(Object.entries(v2.MetricSpec.fields).map(([k, f]) => `${k}=${f.tag}`), ['type=1', 'object=2', 'pods=3', 'resource=4', 'containerResource=7', 'external=5']);
  assert.equal(v2.HorizontalPodAutoscalerStatus.fields.currentMetrics.omitempty, false);
  assert.equal(v1.HorizontalPodAutoscalerStatus.fields.currentReplicas.omitempty, false);
  assert.equal(v2.HorizontalPodAutoscalerStatus.fields.currentReplicas.omitempty, true);
});
