// Pod defaulting against what a v1.26.1 kube-apiserver created from the same requests, and unit
// checks of the individual SetDefaults rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { convertPodSpecAliases, defaultPod, defaultPodSpec, defaultPodTemplate, defaultPodTemplateSpec, imageTag } from './defaults.js';
import { PodSpec } from './pod.js';
import { canonicalQuantity } from '../../meta/quantity.js';
import { goJson, readVector } from './test-helpers.js';

type Obj = Record<string, unknown>;
const clone = <T>(v: T): T => structuredClone(v);

/**
 * The admission plugins of a default kube-apiserver that mutated the vectors' pods (not
 * defaulting; kubelite's admission chain does this): ServiceAccount (serviceAccountName, the
 * kube-api-access volume and its mounts), DefaultTolerationSeconds and Priority.
 */
function simulateAdmission(spec: Obj, saVolumeName: string | undefined): void {
  if (!spec.serviceAccountName) spec.serviceAccountName = 'default';
  if (spec.automountServiceAccountToken !== false && saVolumeName) {
    const volumes = (spec.volumes ??= []) as Obj[];
    volumes.push({
      name: saVolumeName,
      projected: {
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
        defaultMode: 420,
      },
    });
    for (const key of ['initContainers', 'containers']) {
      for (const c of (spec[key] ?? []) as Obj[]) {
        ((c.volumeMounts ??= []) as Obj[]).push({
          name: saVolumeName,
          readOnly: true,
          mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
        });
      }
    }
  }
  const tolerations = (spec.tolerations ?? []) as Obj[];
  const tolerates = (key: string) =>
    tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  const added: Obj[] = [];
  for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
    if (!tolerates(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  if (added.length) spec.tolerations = [...tolerations, ...added];
  spec.priority ??= 0;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
}

/**
 * The vectors' v1.26 server had the MinDomainsInPodTopologySpread and
 * MatchLabelKeysInPodTopologySpread gates off and dropped those fields (dropDisabledFields, a
 * registry step, not defaulting); both are on by default today, so the request drops them here.
 */
function dropV126DisabledFields(spec: Obj): void {
  for (const c of (spec.topologySpreadConstraints ?? []) as Obj[]) {
    delete c.minDomains;
    delete c.matchLabelKeys;
  }
}

function createdSpecFor(name: string): { actual: unknown; expected: unknown } {
  const request = readVector(`${name}.request.json`);
  const created = readVector(`${name}.created.json`);
  const expectedSpec = created.spec as Obj;
  const saVolume = ((expectedSpec.volumes ?? []) as Obj[]).find((v) => String(v.name).startsWith('kube-api-access-'));
  const pod = clone(request);
  dropV126DisabledFields(pod.spec as Obj);
  defaultPod(pod);
  simulateAdmission(pod.spec as Obj, saVolume?.name as string | undefined);
  convertPodSpecAliases(pod.spec as Obj);
  return { actual: goJson(PodSpec, pod.spec), expected: goJson(PodSpec, expectedSpec) };
}

for (const name of ['Pod', 'Pod.minimal']) {
  test(`defaultPod turns ${name}.request.json into the spec of ${name}.created.json`, () => {
    const { actual, expected } = createdSpecFor(name);
    assert.deepEqual(actual, expected);
  });
}

test('the Pod comparison can fail: without defaulting the rich pod differs', () => {
  const request = readVector('Pod.request.json');
  assert.notDeepEqual(goJson(PodSpec, request.spec), goJson(PodSpec, readVector('Pod.created.json').spec));
});

const templatePaths: Record<string, string[]> = {
  Deployment: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};
const dig = (o: Obj, path: string[]): Obj => path.reduce((acc, k) => acc[k] as Obj, o);

for (const [kind, path] of Object.entries(templatePaths)) {
  for (const suffix of ['', '.minimal']) {
    test(`defaultPodTemplateSpec turns the ${kind}${suffix} request's pod template into the created one`, () => {
      const template = clone(dig(readVector(`${kind}${suffix}.request.json`), path));
      dropV126DisabledFields(template.spec as Obj);
      defaultPodTemplateSpec(template);
      convertPodSpecAliases(template.spec as Obj);
      const expected = dig(readVector(`${kind}${suffix}.created.json`), path);
      assert.deepEqual(goJson(PodSpec, template.spec), goJson(PodSpec, expected.spec));
    });
  }
}

test('imagePullPolicy: Always for :latest or no tag and no digest, else IfNotPresent', () => {
  const cases: Array<[string, string]> = [
    ['nginx', 'latest'],
    ['nginx:latest', 'latest'],
    ['nginx:1.25', '1.25'],
    ['localhost:5000/nginx', 'latest'],
    ['localhost:5000/team/nginx:v2', 'v2'],
    ['registry.example.com/tools/sidecar@sha256:' + 'a'.repeat(64), ''],
    ['nginx:latest@sha256:' + 'b'.repeat(64), 'latest'],
    ['Nginx', ''], // invalid: uppercase repository
    ['', ''],
  ];
  for (const [image, tag] of cases) assert.equal(imageTag(image), tag, image);
  const spec: Obj = {
    containers: [
      { name: 'a', image: 'nginx' },
      { name: 'b', image: 'nginx:1' },
      { name: 'c', image: 'nginx@sha256:' + 'c'.repeat(64) },
      { name: 'd', image: 'nginx', imagePullPolicy: 'Never' },
    ],
  };
  defaultPodSpec(spec);
  assert.deepEqual(
    (spec.containers as Obj[]).map((c) => c.imagePullPolicy),
    ['Always', 'IfNotPresent', 'IfNotPresent', 'Never'],
  );
});

test('volume source defaults', () => {
  const spec: Obj = {
    containers: [],
    volumes: [
      { name: 'none' },
      { name: 'hp', hostPath: { path: '/x' } },
      { name: 's', secret: { secretName: 's' } },
      { name: 'cm', configMap: { name: 'c', defaultMode: 256 } },
      { name: 'd', downwardAPI: { items: [{ path: 'n', fieldRef: { fieldPath: 'metadata.name' } }] } },
      { name: 'p', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } },
      { name: 'i', iscsi: { targetPortal: 'tp', iqn: 'q', lun: 0 } },
      { name: 'r', rbd: { monitors: ['m'], image: 'i' } },
      { name: 'az', azureDisk: { diskName: 'd', diskURI: 'u' } },
      { name: 'sio', scaleIO: { gateway: 'g', system: 's', secretRef: null } },
      { name: 'e', ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '0.0001' } } } } } },
      { name: 'img', image: { reference: 'quay.io/x/y:latest' } },
    ],
  };
  defaultPodSpec(spec);
  const v = Object.fromEntries((spec.volumes as Obj[]).map((x) => [x.name, x]));
  assert.deepEqual(v.none, { name: 'none', emptyDir: {} });
  assert.deepEqual(v.hp, { name: 'hp', hostPath: { path: '/x', type: '' } });
  assert.equal((v.s!.secret as Obj).defaultMode, 420);
  assert.equal((v.cm!.configMap as Obj).defaultMode, 256);
  assert.deepEqual(v.d!.downwardAPI, { items: [{ path: 'n', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } }], defaultMode: 420 });
  assert.deepEqual(v.p!.projected, { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }], defaultMode: 420 });
  assert.equal((v.i!.iscsi as Obj).iscsiInterface, 'default');
  assert.deepEqual(v.r!.rbd, { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
  assert.deepEqual(v.az!.azureDisk, { diskName: 'd', diskURI: 'u', cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' });
  assert.deepEqual(v.sio!.scaleIO, { gateway: 'g', system: 's', secretRef: null, storageMode: 'ThinProvisioned', fsType: 'xfs' });
  assert.deepEqual(((v.e!.ephemeral as Obj).volumeClaimTemplate as Obj).spec, {
    resources: { requests: { storage: '1m' } },
    volumeMode: 'Filesystem',
  });
  assert.deepEqual(v.img!.image, { reference: 'quay.io/x/y:latest', pullPolicy: 'Always' });
});

test('container, probe and lifecycle defaults', () => {
  const spec: Obj = {
    containers: [
      {
        name: 'c',
        image: 'x:1',
        ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }],
        env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'F', valueFrom: { fileKeyRef: { volumeName: 'v', path: 'p', key: 'k' } } }],
        livenessProbe: { httpGet: { port: 80 } },
        readinessProbe: { grpc: { port: 9 }, periodSeconds: 5 },
        lifecycle: { preStop: { httpGet: { port: 'http', path: '/stop' } } },
        resources: { limits: { cpu: '0.0005', memory: '1Gi' }, requests: { memory: '512Mi' } },
      },
    ],
  };
  defaultPodSpec(spec);
  const c = (spec.containers as Obj[])[0]!;
  assert.equal(c.terminationMessagePath, '/dev/termination-log');
  assert.equal(c.terminationMessagePolicy, 'File');
  assert.deepEqual(c.ports, [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }]);
  const env = c.env as Array<{ valueFrom: Obj }>;
  assert.deepEqual(env[0]!.valueFrom.fieldRef, { apiVersion: 'v1', fieldPath: 'metadata.name' });
  assert.equal((env[1]!.valueFrom.fileKeyRef as Obj).optional, false);
  assert.deepEqual(c.livenessProbe, {
    httpGet: { port: 80, path: '/', scheme: 'HTTP' },
    timeoutSeconds: 1,
    periodSeconds: 10,
    successThreshold: 1,
    failureThreshold: 3,
  });
  assert.deepEqual((c.readinessProbe as Obj).grpc, { port: 9, service: '' });
  assert.equal((c.readinessProbe as Obj).periodSeconds, 5);
  assert.deepEqual(((c.lifecycle as Obj).preStop as Obj).httpGet, { port: 'http', path: '/stop', scheme: 'HTTP' });
  // SetDefaults_ResourceList rounds up to milli; requests are not copied from limits for templates.
  assert.deepEqual(c.resources, { limits: { cpu: '1m', memory: '1Gi' }, requests: { memory: '512Mi' } });
  assert.deepEqual(
    Object.fromEntries(['dnsPolicy', 'restartPolicy', 'securityContext', 'terminationGracePeriodSeconds', 'schedulerName', 'enableServiceLinks'].map((k) => [k, spec[k]])),
    { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler', enableServiceLinks: undefined },
  );
});

test('pod-only defaults: requests from limits, enableServiceLinks, host network ports', () => {
  const pod: Obj = {
    spec: {
      hostNetwork: true,
      initContainers: [{ name: 'i', image: 'x:1', resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 70 }] }],
      containers: [
        { name: 'c', image: 'x:1', resources: { limits: { cpu: '2', 'example.com/gpu': '1' }, requests: { cpu: '1' } }, ports: [{ containerPort: 80 }, { containerPort: 81, hostPort: 8081 }] },
      ],
    },
  };
  defaultPod(pod);
  const spec = pod.spec as Obj;
  const [c] = spec.containers as Obj[];
  const [i] = spec.initContainers as Obj[];
  assert.deepEqual((c!.resources as Obj).requests, { cpu: '1', 'example.com/gpu': '1' });
  assert.deepEqual((i!.resources as Obj).requests, { cpu: '1' });
  assert.equal(spec.enableServiceLinks, true);
  assert.deepEqual((c!.ports as Obj[]).map((p) => p.hostPort), [80, 8081]);
  assert.deepEqual((i!.ports as Obj[]).map((p) => p.hostPort), [70]);

  // A template gets none of them.
  const template: Obj = { template: { spec: { hostNetwork: true, containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 80 }] }] } } };
  defaultPodTemplate(template);
  const tspec = (template.template as Obj).spec as Obj;
  const [tc] = tspec.containers as Obj[];
  assert.deepEqual(tc!.resources, { limits: { cpu: '1' } });
  assert.equal(tspec.enableServiceLinks, undefined);
  assert.deepEqual(tc!.ports, [{ containerPort: 80, protocol: 'TCP' }]);
});

test('pod-level resources: requests from the containers (sidecars included) or from pod limits', () => {
  const pod: Obj = {
    spec: {
      resources: { limits: { cpu: '4', memory: '4Gi', 'hugepages-2Mi': '10Mi' } },
      initContainers: [
        { name: 'sidecar', image: 'x:1', restartPolicy: 'Always', resources: { requests: { cpu: '500m' } } },
        { name: 'init', image: 'x:1', resources: { requests: { cpu: '3' } } },
      ],
      containers: [
        { name: 'a', image: 'x:1', resources: { requests: { cpu: '1' } } },
        { name: 'b', image: 'x:1', resources: { requests: { cpu: '250m' } } },
      ],
    },
  };
  defaultPod(pod);
  const res = (pod.spec as Obj).resources as Obj;
  // containers 1.25 + sidecar 0.5 = 1.75; init 3 + sidecar 0.5 = 3.5 > 1.75 → 3500m.
  assert.deepEqual(
    Object.fromEntries(Object.entries(res.requests as Obj).map(([k, v]) => [k, canonicalQuantity(String(v))])),
    { cpu: '3500m', memory: '4Gi', 'hugepages-2Mi': '10Mi' },
  );

  const hp: Obj = {
    spec: {
      resources: { requests: { cpu: '1' } },
      containers: [{ name: 'a', image: 'x:1', resources: { limits: { 'hugepages-1Gi': '2Gi' } } }],
    },
  };
  defaultPod(hp);
  assert.deepEqual(((hp.spec as Obj).resources as Obj).limits, { 'hugepages-1Gi': '2Gi' });
});

test('serviceAccount is the alias of serviceAccountName after a round trip', () => {
  const a: Obj = { serviceAccount: 'legacy' };
  convertPodSpecAliases(a);
  assert.deepEqual(a, { serviceAccount: 'legacy', serviceAccountName: 'legacy' });
  const b: Obj = { serviceAccount: 'old', serviceAccountName: 'new' };
  convertPodSpecAliases(b);
  assert.deepEqual(b, { serviceAccount: 'new', serviceAccountName: 'new' });
});
