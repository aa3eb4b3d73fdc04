// Job and CronJob: declarations against the v1.26.1 vectors (JSON keys, protobuf field numbers),
// defaulting against the vectors and per version, and CronJob conversion between batch/v1,
// batch/v1beta1 and batch/v2alpha1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertPodSpecAliases } from '../core/v1/defaults.js';
import { PodTemplateSpec } from '../core/v1/pod.js';
import type { StructType } from '../schema/dsl.js';
import type { KubeObject } from '../schema/kind.js';
import { KUBERNETES_1_26, KUBERNETES_1_34 } from '../features.js';
import {
  applyDefaults,
  canonicalQuantities,
  deepFreeze,
  goNormalize,
  inVersion,
  protoProblems,
  readVector,
  readVectorBytes,
  roundTripFailures,
  unwrapEnvelope,
  versionsOf,
} from '../round-trip.testutil.js';
import { reachableStructs, undeclared } from '../vectors.testutil.js';
import { batchV2alpha1Conversion } from './conversion.js';
import { batchV1beta1Defaults, batchV1Defaults, batchV2alpha1Defaults } from './defaults.js';
import { batchKinds } from './kinds.js';
import * as v1 from './v1.js';
import * as v1beta1 from './v1beta1.js';
import * as v2alpha1 from './v2alpha1.js';

type Obj = Record<string, any>;

const mine = (s: StructType) => s.name.startsWith('io.k8s.api.batch.');
const files = ['request.json', 'created.json', 'pb.json', 'minimal.request.json', 'minimal.created.json'];

test('batch/v1: every key of the Job and CronJob vectors is a declared field', () => {
  for (const [kind, type] of [['Job', v1.Job], ['CronJob', v1.CronJob]] as const)
    for (const f of files) assert.deepEqual(undeclared(type, readVector(`${kind}.${f}`)), [], `${kind}.${f}`);
});

test('every CronJob version declares every key of the vectors read in it', () => {
  for (const k of versionsOf(batchKinds, 'batch', 'CronJob'))
    for (const f of ['created.json', 'pb.json', 'minimal.created.json'])
      assert.deepEqual(undeclared(k.type, inVersion(k, readVector(`CronJob.${f}`))), [], `${f} in ${k.version}`);
});

test('batch/v1 protobuf: field numbers, wire types and pointer facts match the recorded bytes', () => {
  for (const [kind, type] of [['Job', v1.Job], ['CronJob', v1.CronJob]] as const)
    assert.deepEqual(protoProblems(type, unwrapEnvelope(readVectorBytes(`${kind}.pb`)), mine), [], kind);
});

test('the CronJob versions: own names, batch/v1 JobSpec shared, v2alpha1 without timeZone and lastSuccessfulTime', () => {
  assert.equal(v1beta1.CronJob.fields.spec.type.name, 'io.k8s.api.batch.v1beta1.CronJobSpec');
  assert.equal(v1beta1.JobTemplateSpec.name, 'io.k8s.api.batch.v1beta1.JobTemplateSpec');
  assert.equal(v1beta1.JobTemplateSpec.fields.spec.type, v1.JobSpec);
  assert.equal(v2alpha1.JobTemplateSpec.fields.spec.type, v1.JobSpec);
  const v1beta1Names = [...reachableStructs(v1beta1.CronJobList).keys()].filter((n) => n.startsWith('io.k8s.api.batch.'));
  assert.deepEqual(v1beta1Names.filter((n) => n.startsWith('io.k8s.api.batch.v2alpha1.')), []);
  assert.ok(v1beta1Names.includes('io.k8s.api.batch.v1.JobSpec'));
  assert.ok(!v1beta1Names.includes('io.k8s.api.batch.v1.CronJobSpec'));
  assert.deepEqual(Object.keys(v1beta1.CronJob.fields.spec.type.fields), Object.keys(v1.CronJobSpec.fields));
  assert.deepEqual(Object.keys(v2alpha1.CronJobSpec.fields), [
    'schedule', 'startingDeadlineSeconds', 'concurrencyPolicy', 'suspend', 'jobTemplate', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit',
  ]);
  assert.deepEqual(Object.keys(v2alpha1.CronJobStatus.fields), ['active', 'lastScheduleTime']);
  assert.equal(v1.CronJobSpec.fields.timeZone.tag, 8);
});

/** What the v1.26.1 Job strategy set on create (selector, pod labels, tracking annotation), which is not defaulting. */
function withoutJobStrategy(obj: Obj): Obj {
  const out = structuredClone(obj);
  delete out.spec.selector;
  delete out.metadata.annotations?.['batch.kubernetes.io/job-tracking'];
  for (const labels of [out.spec.template?.metadata?.labels, out.metadata.labels]) {
    if (!labels) continue;
    delete labels['controller-uid'];
    delete labels['job-name'];
  }
  return out;
}

function defaulted(type: StructType, obj: Obj): unknown {
  const n = goNormalize(type, obj) as Obj;
  const spec = structuredClone(n.spec ?? {});
  delete spec.template;
  if (spec.jobTemplate?.spec) delete spec.jobTemplate.spec.template;
  const labels = n.metadata?.labels && Object.keys(n.metadata.labels).length ? n.metadata.labels : undefined;
  return { labels, spec };
}

function podTemplate(obj: Obj, written = false): unknown {
  const tpl = (obj.spec?.jobTemplate ? obj.spec.jobTemplate.spec?.template : obj.spec?.template) ?? {};
  if (written) convertPodSpecAliases(tpl.spec ?? {});
  for (const c of tpl.spec?.topologySpreadConstraints ?? []) {
    delete c.minDomains;
    delete c.matchLabelKeys;
  }
  return goNormalize(PodTemplateSpec, written ? canonicalQuantities(PodTemplateSpec, tpl) : tpl);
}

for (const [kind, d, type] of [['Job', batchV1Defaults.job, v1.Job], ['CronJob', batchV1Defaults.cronJob, v1.CronJob]] as const) {
  for (const variant of ['', '.minimal']) {
    test(`batch/v1 ${kind}${variant}: the request defaulted here equals the created object`, () => {
      const request = readVector(`${kind}${variant}.request.json`) as Obj;
      const created = withoutJobStrategy(readVector(`${kind}${variant}.created.json`) as Obj);
      d(request, KUBERNETES_1_26);
      assert.deepEqual(defaulted(type, withoutJobStrategy(request)), defaulted(type, created));
      assert.deepEqual(podTemplate(withoutJobStrategy(request), true), podTemplate(created));
    });
  }
}

test('Job defaults: completions and parallelism, backoffLimit, gates', () => {
  const job = (spec: Obj): Obj => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: {} }, ...spec } });
  const run = (spec: Obj, features = KUBERNETES_1_34): Obj => {
    const obj = job(spec);
    batchV1Defaults.job(obj as KubeObject, features);
    return obj.spec;
  };
  const both = run({});
  assert.deepEqual([both.completions, both.parallelism, both.backoffLimit, both.completionMode, both.suspend], [1, 1, 6, 'NonIndexed', false]);
  assert.deepEqual([both.podReplacementPolicy, both.manualSelector], ['TerminatingOrFailed', false]);
  // Only one set: parallelism defaults, completions stays unset (any pod's success ends the job).
  const onlyParallelism = run({ parallelism: 3 });
  assert.deepEqual([onlyParallelism.completions, onlyParallelism.parallelism], [undefined, 3]);
  const onlyCompletions = run({ completions: 5 });
  assert.deepEqual([onlyCompletions.completions, onlyCompletions.parallelism], [5, 1]);
  assert.equal(run({ backoffLimitPerIndex: 2 }).backoffLimit, 2147483647);
  assert.equal(run({ backoffLimit: 0 }).backoffLimit, 0);
  const withPolicy = run({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } });
  assert.equal(withPolicy.podReplacementPolicy, 'Failed');
  assert.equal(withPolicy.podFailurePolicy.rules[0].onPodConditions[0].status, 'True');
  const old = run({}, KUBERNETES_1_26);
  assert.deepEqual([old.podReplacementPolicy, old.manualSelector], [undefined, undefined]);
  // Metadata labels from the template when empty.
  const labelled = job({});
  labelled.spec.template.metadata = { labels: { app: 'j' } };
  batchV1Defaults.job(labelled as KubeObject);
  assert.deepEqual(labelled.metadata.labels, { app: 'j' });
});

test('CronJob defaults differ per version; the job template is not defaulted as a Job', () => {
  const cron = (apiVersion: string): Obj => ({ apiVersion, kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: {} } } } } });
  const results = ([
    [batchV1Defaults.cronJob, 'batch/v1'],
    [batchV1beta1Defaults.cronJob, 'batch/v1beta1'],
    [batchV2alpha1Defaults.cronJob, 'batch/v2alpha1'],
  ] as const).map(([d, apiVersion]) => {
    const obj = cron(apiVersion);
    d(obj as KubeObject);
    const s = obj.spec;
    return [s.concurrencyPolicy, s.suspend, s.successfulJobsHistoryLimit, s.failedJobsHistoryLimit, s.jobTemplate.spec.backoffLimit, s.jobTemplate.spec.template.spec.restartPolicy];
  });
  assert.deepEqual(results, [
    ['Allow', false, 3, 1, undefined, 'Always'],
    ['Allow', false, 3, 1, undefined, 'Always'],
    ['Allow', false, undefined, undefined, undefined, 'Always'],
  ]);
});

function storedCronJobs(): Array<[string, KubeObject]> {
  const hub = versionsOf(batchKinds, 'batch', 'CronJob')[0]!;
  return ['created.json', 'pb.json', 'minimal.created.json'].map((f) => {
    const obj = readVector(`CronJob.${f}`);
    applyDefaults(hub, obj);
    return [`CronJob.${f}`, obj];
  });
}

test('CronJob: read in any version, converted through any other, reads the same', () => {
  const versions = versionsOf(batchKinds, 'batch', 'CronJob');
  assert.deepEqual(versions.map((k) => k.version), ['v1', 'v1beta1', 'v2alpha1']);
  const withoutV2alpha1 = versions.filter((k) => k.version !== 'v2alpha1');
  for (const [label, obj] of storedCronJobs()) {
    // The rich vector has spec.timeZone, which batch/v2alpha1 cannot represent.
    const representable = !(obj.spec as Obj).timeZone && !(obj.status as Obj | undefined)?.lastSuccessfulTime;
    assert.deepEqual(roundTripFailures(representable ? versions : withoutV2alpha1, obj, label), [], label);
    const stripped = structuredClone(obj) as Obj;
    delete stripped.spec.timeZone;
    delete stripped.status?.lastSuccessfulTime;
    assert.deepEqual(roundTripFailures(versions, stripped, `${label} without timeZone`), [], label);
  }
});

test('CronJob in batch/v2alpha1 loses timeZone and lastSuccessfulTime, and nothing else', () => {
  const [, rich] = storedCronJobs()[0]!;
  const obj = structuredClone(rich) as Obj;
  obj.status = { lastScheduleTime: '2026-01-01T00:00:00Z', lastSuccessfulTime: '2026-01-01T00:01:00Z' };
  const read = batchV2alpha1Conversion.cronJob.fromHub(deepFreeze(structuredClone(obj))) as Obj;
  assert.equal(read.apiVersion, 'batch/v2alpha1');
  assert.equal(read.spec.timeZone, undefined);
  assert.deepEqual(read.status, { lastScheduleTime: '2026-01-01T00:00:00Z' });
  const back = batchV2alpha1Conversion.cronJob.toHub(deepFreeze(read)) as Obj;
  delete obj.spec.timeZone;
  delete obj.status.lastSuccessfulTime;
  assert.deepEqual(back, obj);
  assert.notDeepEqual(roundTripFailures(versionsOf(batchKinds, 'batch', 'CronJob'), rich, 'rich'), []);
});
