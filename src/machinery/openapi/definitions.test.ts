import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ListMeta, ObjectMeta } from '../../api/meta/v1.js';
import { field, listOf, mapOf, struct, t, typeMetaFields } from '../../api/schema/dsl.js';
import type { KindVersion } from '../../api/schema/kind.js';
import { buildDefinitions } from './definitions.js';

const Port = struct('test.openapi.v1.Port', {
  name: field(t.string, 1),
  port: field(t.int32, 2, { omitempty: false, required: true }),
  target: field(t.intOrString, 3, { pointer: true }),
});
const WidgetSpec = struct('test.openapi.v1.WidgetSpec', {
  replicas: field(t.int32, 1, { pointer: true, default: 1 }),
  ports: field(listOf(Port), 2, { patchStrategy: 'merge', patchMergeKey: 'port', listType: 'map', listMapKeys: ['port'] }),
  limits: field(mapOf(t.quantity), 3),
  data: field(t.bytes, 4),
});
const Widget = struct('test.openapi.v1.Widget', {
  ...typeMetaFields,
  metadata: field(ObjectMeta, 1),
  spec: field(WidgetSpec, 2),
});
const WidgetList = struct('test.openapi.v1.WidgetList', {
  ...typeMetaFields,
  metadata: field(ListMeta, 1),
  items: field(listOf(Widget), 2, { omitempty: false, required: true }),
});
const kind: KindVersion = {
  group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', singular: 'widget',
  namespaced: true, type: Widget, list: WidgetList, storage: true,
};

test('v2 definitions: $ref, extensions, required, GVK, named scalar types', () => {
  const defs = buildDefinitions([kind], 'v2');
  const widget = defs['test.openapi.v1.Widget']!;
  assert.deepEqual(widget['x-kubernetes-group-version-kind'], [{ group: 'example.com', kind: 'Widget', version: 'v1' }]);
  assert.deepEqual(defs['test.openapi.v1.WidgetList']!['x-kubernetes-group-version-kind'], [
    { group: 'example.com', kind: 'WidgetList', version: 'v1' },
  ]);
  const props = widget.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(props.metadata, { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
  assert.deepEqual(props.kind, { type: 'string', description: 'The type of this object, in CamelCase (Pod, Deployment, ...). Fixed for each REST resource.' });
  const spec = (defs['test.openapi.v1.WidgetSpec']!.properties as Record<string, Record<string, unknown>>);
  assert.deepEqual(spec.ports, {
    type: 'array',
    items: { $ref: '#/definitions/test.openapi.v1.Port' },
    'x-kubernetes-patch-merge-key': 'port',
    'x-kubernetes-patch-strategy': 'merge',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['port'],
  });
  assert.deepEqual(spec.replicas, { type: 'integer', format: 'int32', default: 1 });
  assert.deepEqual(spec.limits, { type: 'object', additionalProperties: { $ref: '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity' } });
  assert.deepEqual(spec.data, { type: 'string', format: 'byte' });
  assert.deepEqual(defs['test.openapi.v1.Port']!.required, ['port']);
  assert.deepEqual({ ...defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString'], description: undefined }, { type: 'string', format: 'int-or-string', description: undefined });
  assert.deepEqual({ ...defs['io.k8s.apimachinery.pkg.api.resource.Quantity'], description: undefined }, { type: 'string', description: undefined });
  assert.deepEqual(defs['io.k8s.apimachinery.pkg.apis.meta.v1.Time'], { type: 'string', format: 'date-time' });
  // Atomic structs carry the map-type marker that apply clients read.
  assert.equal(defs['io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference']!['x-kubernetes-map-type'], 'atomic');
  // Only reachable types appear, sorted by name.
  assert.deepEqual(Object.keys(defs), [...Object.keys(defs)].sort());
  assert.ok(!('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' in defs));
});

test('v3 schemas: allOf-wrapped refs with Go zero defaults for non-pointer fields', () => {
  const defs = buildDefinitions([kind], 'v3');
  const props = defs['test.openapi.v1.Widget']!.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(props.metadata, { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {} });
  // kind has omitempty: Kubernetes enforces no zero default on it (it does on non-omitempty scalars).
  assert.equal(props.kind!.default, undefined);
  const port = defs['test.openapi.v1.Port']!.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(port.target, { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString' }] });
  assert.deepEqual(port.port, { type: 'integer', format: 'int32', default: 0 });
  const meta = defs['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(meta.labels!.additionalProperties, { type: 'string', default: '' });
  const { description: qd, ...quantity } = defs['io.k8s.apimachinery.pkg.api.resource.Quantity']!;
  assert.deepEqual(quantity, { oneOf: [{ type: 'string' }, { type: 'number' }] });
  assert.equal(typeof qd, 'string');
  // v3 publishes IntOrString as a oneOf with the format kept, so kubectl explain prints <IntOrString>.
  const { description: id, ...intOrString } = defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString']!;
  assert.deepEqual(intOrString, { format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] });
  assert.equal(typeof id, 'string');
});

test('the served kinds produce Kubernetes’ definitions for kubectl', async () => {
  const { allKinds } = await import('../../api/kinds.js');
  for (const version of ['v2', 'v3'] as const) {
    const defs = buildDefinitions(allKinds, version);
    const deployment = defs['io.k8s.api.apps.v1.Deployment']!;
    assert.deepEqual(deployment['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    const podSpec = defs['io.k8s.api.core.v1.PodSpec']!.properties as Record<string, Record<string, unknown>>;
    assert.equal(podSpec.containers!['x-kubernetes-patch-merge-key'], 'name');
    assert.equal(podSpec.containers!['x-kubernetes-patch-strategy'], 'merge');
    assert.deepEqual(defs['io.k8s.api.core.v1.PodSpec']!.required, ['containers']);
    // Structs Go embeds inline are flattened into their users, as in Kubernetes' documents.
    assert.ok(!('io.k8s.api.core.v1.VolumeSource' in defs));
    assert.ok(!('io.k8s.api.core.v1.ProbeHandler' in defs));
    const volume = defs['io.k8s.api.core.v1.Volume']!.properties as Record<string, unknown>;
    assert.ok('configMap' in volume && 'name' in volume);
    assert.ok(defs['io.k8s.api.apps.v1beta1.Deployment'] && defs['io.k8s.api.extensions.v1beta1.DaemonSet'] && defs['io.k8s.api.batch.v2alpha1.CronJob']);
    const strategy = defs['io.k8s.api.apps.v1.DeploymentStrategy']!.properties as Record<string, unknown>;
    assert.ok('rollingUpdate' in strategy && 'type' in strategy);
  }
});
