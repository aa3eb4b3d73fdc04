// End-to-end: a real `kubelite apiserver` process driven by real kubectl (the version the
// dispatcher picks for the server, and the oldest one on the machine).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk, kubectlStream } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

const MANIFESTS = `
apiVersion: v1
kind: ConfigMap
metadata: {name: cm1, namespace: e2e}
data: {a: "1"}
---
apiVersion: v1
kind: Secret
metadata: {name: s1, namespace: e2e}
stringData: {password: hunter2}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa1, namespace: e2e}
---
apiVersion: v1
kind: Service
metadata: {name: svc1, namespace: e2e}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d1, namespace: e2e}
spec:
  replicas: 2
  selector: {matchLabels: {app: d1}}
  template:
    metadata: {labels: {app: d1}}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports: [{containerPort: 80}]
        readinessProbe: {httpGet: {path: /, port: 80}, initialDelaySeconds: 1}
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds1, namespace: e2e}
spec:
  selector: {matchLabels: {app: ds1}}
  template:
    metadata: {labels: {app: ds1}}
    spec:
      tolerations: [{operator: Exists}]
      containers: [{name: agent, image: busybox, command: [sleep, "3600"]}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: sts1, namespace: e2e}
spec:
  serviceName: svc1
  replicas: 1
  selector: {matchLabels: {app: sts1}}
  template:
    metadata: {labels: {app: sts1}}
    spec:
      containers: [{name: db, image: postgres:16}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: j1, namespace: e2e}
spec:
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: work, image: busybox, command: [sh, -c, "exit 0"]}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: cj1, namespace: e2e}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: tick, image: busybox}]
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: l1, namespace: e2e}
spec: {holderIdentity: me, leaseDurationSeconds: 15}
---
apiVersion: v1
kind: Pod
metadata: {name: pod1, namespace: e2e, labels: {app: web, tier: front}}
spec:
  containers: [{name: c, image: busybox, command: [sleep, "1000"]}]
`;

const OLD_VERSIONS = `
apiVersion: apps/v1beta1
kind: Deployment
metadata: {name: old-deploy, namespace: e2e}
spec:
  template:
    metadata: {labels: {app: old}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata: {name: old-ds, namespace: e2e}
spec:
  template:
    metadata: {labels: {app: old-ds}}
    spec:
      containers: [{name: c, image: nginx}]
---
apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: old-cj, namespace: e2e}
spec:
  schedule: "@hourly"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
---
apiVersion: batch/v2alpha1
kind: CronJob
metadata: {name: alpha-cj, namespace: e2e}
spec:
  schedule: "0 0 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: c, image: busybox}]
`;

for (const storage of ['memory', 'lmdb'] as const) {
  describe(`kubectl against kubelite apiserver (${storage})`, () => {
    let server: RunningApiserver;
    let kc: string;
    const k = (args: string[], input?: string) => kubectlOk(kc, args, { input });

    before(async () => {
      server = await startApiserver(['--storage', storage]);
      kc = server.kubeconfig;
    });
    after(async () => {
      await server?.stop();
    });

    it('discovery: api-resources and api-versions', async () => {
      const resources = await k(['api-resources']);
      for (const r of ['pods', 'deployments', 'cronjobs', 'leases', 'namespaces', 'nodes']) assert.match(resources, new RegExp(`^${r}\\s`, 'm'));
      const versions = await k(['api-versions']);
      for (const v of ['v1', 'apps/v1', 'apps/v1beta1', 'apps/v1beta2', 'extensions/v1beta1', 'batch/v1', 'batch/v1beta1', 'batch/v2alpha1', 'coordination.k8s.io/v1']) {
        assert.match(versions, new RegExp(`^${v.replace('.', '\\.')}$`, 'm'));
      }
    });

    it('create (protobuf bodies), apply -f of every kind, get in every output', async () => {
      await k(['create', 'namespace', 'e2e']);
      await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=2', '-n', 'e2e']);
      await k(['create', 'configmap', 'cm0', '--from-literal=a=b', '-n', 'e2e']);
      const applied = await k(['apply', '-f', '-'], MANIFESTS);
      for (const name of ['configmap/cm1', 'secret/s1', 'serviceaccount/sa1', 'service/svc1', 'deployment.apps/d1', 'daemonset.apps/ds1', 'statefulset.apps/sts1', 'job.batch/j1', 'cronjob.batch/cj1', 'lease.coordination.k8s.io/l1', 'pod/pod1']) {
        assert.match(applied, new RegExp(`${name.replace('.', '\\.')} created`));
      }
      // Applying the same manifests again changes nothing.
      assert.match(await k(['apply', '-f', '-'], MANIFESTS), /configmap\/cm1 unchanged/);
      const d = JSON.parse(await k(['get', 'deployment', 'd1', '-n', 'e2e', '-o', 'json']));
      assert.equal(d.spec.strategy.rollingUpdate.maxSurge, '25%');
      assert.equal(d.spec.template.spec.containers[0].terminationMessagePath, '/dev/termination-log');
      assert.equal(d.metadata.generation, 1);
      assert.match(await k(['get', 'deployments', '-n', 'e2e']), /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nd1\s+0\/2/m);
      assert.match(await k(['get', 'pods', '-n', 'e2e', '-o', 'wide']), /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES/m);
      assert.match(await k(['get', 'cronjobs', '-n', 'e2e']), /cj1\s+\*\/5 \* \* \* \*/);
      assert.match(await k(['get', 'secret', 's1', '-n', 'e2e', '-o', 'yaml']), /password: aHVudGVyMg==/);
      const chunked = await k(['get', 'configmaps', '-n', 'e2e', '--chunk-size=1', '-o', 'name']);
      assert.deepEqual(chunked.trim().split('\n'), ['configmap/cm0', 'configmap/cm1']);
      assert.match(await k(['get', 'pods', '-A', '-l', 'app=web,tier in (front)']), /e2e\s+pod1/);
      assert.match(await k(['get', 'pods', '-n', 'e2e', '--field-selector', 'metadata.name=pod1', '-o', 'name']), /^pod\/pod1$/m);
    });

    it('objects written in old API versions read back in every version', async () => {
      const out = await k(['apply', '-f', '-'], OLD_VERSIONS);
      assert.match(out, /deployment\.apps\/old-deploy created/);
      const v1 = JSON.parse(await k(['get', 'deployments.v1.apps', 'old-deploy', '-n', 'e2e', '-o', 'json']));
      assert.deepEqual(v1.spec.selector, { matchLabels: { app: 'old' } }, 'apps/v1beta1 defaults the selector from the template');
      assert.equal(v1.spec.revisionHistoryLimit, 2, 'apps/v1beta1 default');
      const beta2 = JSON.parse(await k(['get', 'deployments.v1beta2.apps', 'old-deploy', '-n', 'e2e', '-o', 'json']));
      assert.equal(beta2.apiVersion, 'apps/v1beta2');
      const ext = JSON.parse(await k(['get', 'daemonsets.v1beta1.extensions', 'old-ds', '-n', 'e2e', '-o', 'json']));
      assert.equal(ext.apiVersion, 'extensions/v1beta1');
      assert.equal(ext.spec.updateStrategy.type, 'OnDelete');
      const cj = JSON.parse(await k(['get', 'cronjobs.v1.batch', 'old-cj', '-n', 'e2e', '-o', 'json']));
      assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
      const alpha = JSON.parse(await k(['get', 'cronjobs.v1.batch', 'alpha-cj', '-n', 'e2e', '-o', 'json']));
      assert.equal(alpha.spec.successfulJobsHistoryLimit, undefined, 'batch/v2alpha1 has no history-limit defaults');
    });

    it('patch (strategic, merge, json), label, annotate, scale, set image', async () => {
      await k(['patch', 'deployment', 'web', '-n', 'e2e', '--type=strategic', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","env":[{"name":"A","value":"b"}]}]}}}}']);
      await k(['patch', 'deployment', 'web', '-n', 'e2e', '--type=merge', '-p', '{"spec":{"minReadySeconds":5}}']);
      await k(['patch', 'deployment', 'web', '-n', 'e2e', '--type=json', '-p', '[{"op":"replace","path":"/spec/revisionHistoryLimit","value":4}]']);
      await k(['label', 'deployment', 'web', 'tier=frontend', '-n', 'e2e']);
      await k(['annotate', 'deployment', 'web', 'example.com/note=hello', '-n', 'e2e']);
      await k(['scale', 'deployment', 'web', '--replicas=3', '-n', 'e2e']);
      await k(['set', 'image', 'deployment/web', 'nginx=nginx:1.27', '-n', 'e2e']);
      const d = JSON.parse(await k(['get', 'deployment', 'web', '-n', 'e2e', '-o', 'json']));
      const c = d.spec.template.spec.containers[0];
      assert.deepEqual(c.env, [{ name: 'A', value: 'b' }]);
      assert.equal(c.image, 'nginx:1.27');
      assert.equal(d.spec.minReadySeconds, 5);
      assert.equal(d.spec.revisionHistoryLimit, 4);
      assert.equal(d.spec.replicas, 3);
      assert.equal(d.metadata.labels.tier, 'frontend');
      assert.equal(d.metadata.annotations['example.com/note'], 'hello');
      assert.ok(d.metadata.generation >= 5, `generation ${d.metadata.generation}`);
      const bad = await kubectl(kc, ['patch', 'deployment', 'web', '-n', 'e2e', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":99}]']);
      assert.notEqual(bad.code, 0);
    });

    it('replace with a stale resourceVersion is a conflict; diff shows a change', async () => {
      const cm = JSON.parse(await k(['get', 'configmap', 'cm1', '-n', 'e2e', '-o', 'json']));
      await k(['patch', 'configmap', 'cm1', '-n', 'e2e', '--type=merge', '-p', '{"data":{"a":"2"}}']);
      cm.data.a = '3';
      const stale = await kubectl(kc, ['replace', '-f', '-'], { input: JSON.stringify(cm) });
      assert.notEqual(stale.code, 0);
      assert.match(stale.stderr, /the object has been modified; please apply your changes to the latest version and try again/);
      // A patch never fails on the optimistic lock, unless it names a resourceVersion itself.
      const pinned = await kubectl(kc, ['patch', 'configmap', 'cm1', '-n', 'e2e', '--type=merge', '-p', JSON.stringify({ metadata: { resourceVersion: cm.metadata.resourceVersion }, data: { a: '4' } })]);
      assert.notEqual(pinned.code, 0);
      assert.match(pinned.stderr, /the object has been modified/);
      const diff = await kubectl(kc, ['diff', '-f', '-'], { input: MANIFESTS.replace('data: {a: "1"}', 'data: {a: "9"}') });
      assert.equal(diff.code, 1, diff.stderr);
      assert.match(diff.stdout, /\+\s+a: "9"/);
    });

    it('get -w sees additions, changes and deletions', async () => {
      const w = kubectlStream(kc, ['get', 'configmaps', '-n', 'e2e', '-w', '-o', 'name']);
      try {
        await w.waitFor(/configmap\/cm1/);
        await k(['create', 'configmap', 'watched', '-n', 'e2e']);
        await w.waitFor(/configmap\/watched/);
        await k(['delete', 'configmap', 'watched', '-n', 'e2e']);
        await w.waitFor(/configmap\/watched[\s\S]*configmap\/watched/);
      } finally {
        w.child.kill();
      }
    });

    it('delete in each propagation mode, wait --for=delete, explain', async () => {
      await k(['delete', 'configmap', 'cm0', '-n', 'e2e']);
      assert.notEqual((await kubectl(kc, ['get', 'configmap', 'cm0', '-n', 'e2e'])).code, 0);
      // Orphan and foreground deletion leave the object with its finalizer until the garbage
      // collector (controller manager) runs, so kubectl must not wait for it here.
      await k(['delete', 'deployment', 'd1', '-n', 'e2e', '--cascade=orphan', '--wait=false']);
      const orphaned = JSON.parse(await k(['get', 'deployment', 'd1', '-n', 'e2e', '-o', 'json']));
      assert.deepEqual(orphaned.metadata.finalizers, ['orphan']);
      await k(['delete', 'secret', 's1', '-n', 'e2e', '--cascade=background']);
      await k(['wait', '--for=delete', 'secret/s1', '-n', 'e2e', '--timeout=10s']);
      await k(['delete', 'job', 'j1', '-n', 'e2e', '--cascade=foreground', '--wait=false']);
      const job = JSON.parse(await k(['get', 'job', 'j1', '-n', 'e2e', '-o', 'json']));
      assert.deepEqual(job.metadata.finalizers, ['foregroundDeletion']);
      assert.ok(job.metadata.deletionTimestamp);
      const explained = await k(['explain', 'deployment.spec.strategy']);
      assert.match(explained, /rollingUpdate/);
      assert.match(explained, /type/);
    });
  });
}

describe('kubectl 1.27 (the oldest on the machine)', () => {
  let server: RunningApiserver;
  before(async () => {
    server = await startApiserver(['--storage', 'memory']);
  });
  after(async () => {
    await server?.stop();
  });

  it('creates, applies, lists and deletes', async () => {
    const k = (args: string[], input?: string) => kubectlOk(server.kubeconfig, args, { version: '1.27', input });
    await k(['create', 'namespace', 'e2e']);
    await k(['create', 'deployment', 'web', '--image=nginx', '-n', 'e2e']);
    assert.match(await k(['apply', '-f', '-'], MANIFESTS), /deployment\.apps\/d1 created/);
    assert.match(await k(['get', 'deploy', '-n', 'e2e']), /d1\s+0\/2/);
    await k(['scale', 'deployment', 'web', '--replicas=2', '-n', 'e2e']);
    await k(['delete', 'deployment', 'web', '-n', 'e2e']);
  });
});

describe('kubelite apiserver on lmdb: restart on the same data directory', () => {
  it('brings back every object and keeps revisions increasing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kubelite-restart-'));
    try {
      let s = await startApiserver(['--storage', 'lmdb', '--data-dir', dataDir]);
      await kubectlOk(s.kubeconfig, ['create', 'namespace', 'keep']);
      await kubectlOk(s.kubeconfig, ['create', 'configmap', 'c', '--from-literal=k=v', '-n', 'keep']);
      const before = JSON.parse(await kubectlOk(s.kubeconfig, ['get', 'configmap', 'c', '-n', 'keep', '-o', 'json']));
      await s.stop();
      s = await startApiserver(['--storage', 'lmdb', '--data-dir', dataDir]);
      try {
        const after = JSON.parse(await kubectlOk(s.kubeconfig, ['get', 'configmap', 'c', '-n', 'keep', '-o', 'json']));
        assert.equal(after.metadata.uid, before.metadata.uid);
        assert.deepEqual(after.data, { k: 'v' });
        await kubectlOk(s.kubeconfig, ['create', 'configmap', 'd', '-n', 'keep']);
        const d = JSON.parse(await kubectlOk(s.kubeconfig, ['get', 'configmap', 'd', '-n', 'keep', '-o', 'json']));
        assert.ok(Number(d.metadata.resourceVersion) > Number(before.metadata.resourceVersion));
      } finally {
        await s.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
