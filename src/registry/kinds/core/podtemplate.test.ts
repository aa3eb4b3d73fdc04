// core/v1 PodTemplate, the worked example of ../../README.md: defaults (SetObjectDefaults_PodTemplate),
// validation (ValidatePodTemplate: the template as any pod template), generation, columns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, kindOf, lines, update } from '../kinds.testutil.js';

const podTemplate = (template: KubeObject): KubeObject => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'web' }, template });
const web = podTemplate({ metadata: { labels: { tier: 'front', app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }, { name: 'side', image: 'nginx:1.27' }] } });
const specOf = (o: KubeObject): KubeObject => ((o.template as KubeObject).spec ?? {}) as KubeObject;
/** `template` as the store holds it after its create (with a resourceVersion). */
function stored(template: KubeObject): KubeObject {
  const { obj } = create(template);
  (obj.metadata as KubeObject).resourceVersion = '1';
  return obj;
}

test('a pod template is defaulted as a pod spec is, and starts at generation 1', () => {
  const { obj, errors } = create(web);
  assert.deepEqual(lines(errors), []);
  const spec = specOf(obj);
  assert.equal(spec.restartPolicy, 'Always');
  assert.equal(spec.dnsPolicy, 'ClusterFirst');
  assert.equal(spec.terminationGracePeriodSeconds, 30);
  assert.equal(((spec.containers as KubeObject[])[0]!).imagePullPolicy, 'Always');
  assert.equal(((spec.containers as KubeObject[])[1]!).imagePullPolicy, 'IfNotPresent');
  assert.equal((obj.metadata as KubeObject).generation, 1);
});

test('the template is validated as a pod template, on create and on update', () => {
  assert.deepEqual(lines(create(podTemplate({ spec: {} })).errors), ['template.spec.containers: Required value']);
  assert.deepEqual(lines(create(podTemplate({ metadata: { labels: { 'a b': 'x' } }, spec: specOf(web) })).errors), [
    'template.labels: Invalid value: "a b": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
  ]);
  const created = stored(web);
  const broken = structuredClone(created);
  delete ((specOf(broken).containers as KubeObject[])[0]!).image;
  assert.deepEqual(lines(update(broken, created).errors), ['template.spec.containers[0].image: Required value']);
});

test('a change of the template bumps the generation; a change of labels alone does not', () => {
  const created = stored(web);
  const relabeled = { ...structuredClone(created), metadata: { ...(created.metadata as KubeObject), labels: { x: 'y' } } };
  assert.deepEqual(lines(update(relabeled, created).errors), []);
  assert.equal((update(relabeled, created).obj.metadata as KubeObject).generation, 1);
  const changed = structuredClone(created);
  ((specOf(changed).containers as KubeObject[])[0]!).image = 'busybox:1.37';
  assert.equal((update(changed, created).obj.metadata as KubeObject).generation, 2);
});

test('kubectl get podtemplates: NAME, CONTAINERS, IMAGES, POD LABELS (no age)', () => {
  const printer = printerOf(kindOf(web));
  assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Containers', 'Images', 'Pod Labels']);
  assert.deepEqual(printer.cells(create(web).obj, Date.now()), ['web', 'c,side', 'busybox,nginx:1.27', 'app=web,tier=front']);
  assert.deepEqual(printer.cells(podTemplate({}), Date.now()), ['web', '', '', '<none>']);
});
