// The declarations against the protobuf bytes a v1.26.1 kube-apiserver wrote (Pod.pb): a small
// schema-driven decoder (written here, independent of the codec) reads every field by its
// declared number, including Go's inline embeddings, and the result, passed through the Go-JSON
// emulation, must equal the JSON the server sent for the same object (Pod.pb.json). A wrong tag,
// type, embedding or pointer fact shows up as an unknown field or a difference.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StructType } from '../../schema/dsl.js';
import { Pod, PodList, PodSpec } from './pod.js';
import { Probe } from './probe.js';
import { decodeVectorPb, goJson, readVector } from './test-helpers.js';

test('Pod.pb decodes with the declared field numbers into exactly Pod.pb.json', () => {
  const { decoded, errors } = decodeVectorPb(Pod, 'Pod.pb');
  assert.deepEqual(errors, []);
  assert.deepEqual(goJson(Pod, decoded), readVector('Pod.pb.json'));
});

test('lists/PodList.pb decodes with the declared field numbers into exactly lists/PodList.pb.json', () => {
  const { decoded, errors } = decodeVectorPb(PodList, '../lists/PodList.pb');
  assert.deepEqual(errors, []);
  assert.deepEqual(goJson(PodList, decoded), readVector('../lists/PodList.pb.json'));
});

/** Pod with one field of PodSpec or Probe replaced (a copy, not a registered struct). */
function podWith(change: { spec?: Record<string, unknown>; probe?: Record<string, unknown> }): StructType {
  const probe = { ...Probe, fields: { ...Probe.fields, ...change.probe } } as StructType;
  const containerType = PodSpec.fields.containers.type.of;
  const container = {
    ...containerType,
    fields: {
      ...containerType.fields,
      livenessProbe: { ...containerType.fields.livenessProbe, type: probe },
      readinessProbe: { ...containerType.fields.readinessProbe, type: probe },
      startupProbe: { ...containerType.fields.startupProbe, type: probe },
    },
  } as StructType;
  const specFields = {
    ...PodSpec.fields,
    containers: { ...PodSpec.fields.containers, type: { kind: 'list', of: container } },
    ...change.spec,
  };
  return { ...Pod, fields: { ...Pod.fields, spec: { ...Pod.fields.spec, type: { ...PodSpec, fields: specFields } } } } as StructType;
}

test('the protobuf check fails on a wrong field number', () => {
  const { errors } = decodeVectorPb(podWith({ spec: { containers: { ...PodSpec.fields.containers, tag: 99 } } }), 'Pod.pb');
  assert.ok(errors.some((e) => e.includes('field number 2 is not declared in io.k8s.api.core.v1.PodSpec')), errors.join('\n'));
});

test('the protobuf check fails on a wrong pointer fact', () => {
  // initialDelaySeconds is a non-pointer int32: Go writes 0 on the wire but omits it in JSON.
  const pod = podWith({ probe: { initialDelaySeconds: { ...Probe.fields.initialDelaySeconds, pointer: true } } });
  const { decoded, errors } = decodeVectorPb(pod, 'Pod.pb');
  assert.deepEqual(errors, []);
  assert.notDeepEqual(goJson(pod, decoded), readVector('Pod.pb.json'));
});
