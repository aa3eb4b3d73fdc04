// Structural self-checks of the Pod type tree against what a real v1.26.1 kube-apiserver wrote
// (JSON), using the schema walkers of ./test-helpers.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StructType } from '../../schema/dsl.js';
import { Pod, PodList, PodTemplate, PodTemplateList, PodTemplateSpec } from './pod.js';
import { declarationErrors, goJson, readVector } from './test-helpers.js';
import { reachableStructs, undeclared } from '../../vectors.testutil.js';

const podRoots = [Pod, PodList, PodTemplate, PodTemplateList, PodTemplateSpec];

test('every struct reachable from Pod, PodList, PodTemplate(List) is well formed', () => {
  const structs = reachableStructs(...podRoots);
  assert.ok(structs.size > 100, `only ${structs.size} structs reachable`);
  const errors = [...structs.values()].flatMap(declarationErrors);
  assert.deepEqual(errors, []);
});

test('the declaration checker reports bad merge keys, list map keys and tags', () => {
  const bad: StructType = {
    kind: 'struct',
    name: 'Bad',
    fields: {
      a: { type: { kind: 'list', of: Pod }, tag: 1, pointer: false, omitempty: true, patchStrategy: 'merge', patchMergeKey: 'nope' },
      b: { type: { kind: 'list', of: Pod }, tag: 1, pointer: false, omitempty: true, listType: 'map', listMapKeys: ['metadata', 'x'] },
    },
  };
  const errors = declarationErrors(bad);
  assert.equal(errors.length, 3, errors.join('\n'));
});

for (const name of ['Pod.created.json', 'Pod.pb.json', 'Pod.minimal.created.json', 'Pod.request.json']) {
  test(`every key of ${name} is a declared field`, () => {
    assert.deepEqual(undeclared(Pod, readVector(name)), []);
  });
}

test('the JSON walker reports undeclared keys and wrong scalar kinds', () => {
  const pod = readVector('Pod.created.json');
  const spec = pod.spec as { containers: Array<Record<string, unknown>> };
  spec.containers[0]!.imagePullPolcy = 'Always';
  spec.containers[0]!.stdin = 'yes';
  assert.deepEqual(undeclared(Pod, pod).sort(), [
    '$.spec.containers[0].imagePullPolcy: not a field of io.k8s.api.core.v1.Container',
    '$.spec.containers[0].stdin: expected a boolean (bool), got "yes"',
  ]);
});

for (const name of ['Pod.created.json', 'Pod.pb.json', 'Pod.minimal.created.json']) {
  test(`${name} is exactly what Go's encoder writes for the declared pointer/omitempty facts`, () => {
    const pod = readVector(name);
    assert.deepEqual(goJson(Pod, pod), pod);
  });
}

test('the Go-JSON emulation notices a wrong omitempty or pointer fact', () => {
  const pod = readVector('Pod.created.json');
  // The request had `"readOnly": false` on a PVC volume; Go drops it (non-pointer, omitempty).
  const spec = pod.spec as { volumes: Array<Record<string, Record<string, unknown>>> };
  const pvc = spec.volumes.find((v) => v.persistentVolumeClaim)!;
  pvc.persistentVolumeClaim!.readOnly = false;
  assert.notDeepEqual(goJson(Pod, pod), pod);
});
