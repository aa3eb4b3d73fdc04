// End-to-end: server-side apply and managedFields with real kubectl (1.33 and 1.27) against a
// `kubelite apiserver` process, checked against what a real kube-apiserver wrote for the same
// commands (test/vectors/managed-fields/, without the controller manager's entries: no
// controllers run here).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { Client } from '../support/http.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { TESTDATA } from '../support/vectors.js';

const vector = (name: string) => readFileSync(join(TESTDATA, 'managed-fields', name), 'utf8');
const CSA = vector('mf-csa.yaml');
const MANAGER_A = vector('mf-manager-a.yaml');
const MANAGER_B = vector('mf-manager-b.yaml');
const BY_STEP = JSON.parse(vector('managedFields-by-step.json')) as Record<string, { managedFields: any[] }>;

/** A step's managedFields as Kubernetes wrote them, without the controllers' entries and times. */
function expectedAt(step: string): any[] {
  return untimed(BY_STEP[step]!.managedFields.filter((e) => e.manager !== 'kube-controller-manager'));
}

function untimed(entries: any[]): any[] {
  return entries.map(({ time: _time, ...rest }) => rest);
}

describe('server-side apply', () => {
  let server: RunningApiserver;
  let c: Client;

  before(async () => {
    server = await startApiserver(['--storage', 'memory']);
    c = new Client(server.url);
  });
  after(async () => {
    await server?.stop();
  });

  for (const version of ['1.33', '1.27']) {
    describe(`kubectl ${version}`, () => {
      const ns = `ssa-${version.replace('.', '-')}`;
      const k = (args: string[], input?: string) => kubectlOk(server.kubeconfig, [...args, '-n', ns], { version, input });
      const raw = (args: string[], input?: string) => kubectl(server.kubeconfig, [...args, '-n', ns], { version, input });
      const getMf = async () => JSON.parse(await k(['get', 'deployment', 'mf', '-o', 'json', '--show-managed-fields'])) as any;

      before(async () => {
        await kubectlOk(server.kubeconfig, ['create', 'namespace', ns], { version });
      });

      it('client-side apply, then apply --server-side migrates ownership as Kubernetes does', async () => {
        assert.match(await k(['apply', '-f', '-'], CSA), /deployment\.apps\/mf created/);
        assert.deepEqual(untimed((await getMf()).metadata.managedFields), expectedAt('01-after-client-side-apply'));
        assert.match(await k(['apply', '--server-side', '--field-manager=manager-a', '-f', '-'], MANAGER_A), /deployment\.apps\/mf serverside-applied/);
        const obj = await getMf();
        assert.deepEqual(untimed(obj.metadata.managedFields), expectedAt('02-after-server-side-apply-manager-a'));
        // What only the client-side apply had set is gone with its manager (the annotation); the defaults stay.
        assert.equal(obj.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'], undefined);
        assert.equal(obj.metadata.labels.owner, 'manager-a');
        assert.equal(obj.spec.progressDeadlineSeconds, 600);
      });

      it('apply --server-side again is a no-op: same resourceVersion', async () => {
        const before = (await getMf()).metadata.resourceVersion;
        assert.match(await k(['apply', '--server-side', '--field-manager=manager-a', '-f', '-'], MANAGER_A), /serverside-applied/);
        assert.equal((await getMf()).metadata.resourceVersion, before);
      });

      it('a second manager conflicts, then takes the fields with --force-conflicts', async () => {
        const r = await raw(['apply', '--server-side', '--field-manager=manager-b', '-f', '-'], MANAGER_B);
        assert.notEqual(r.code, 0);
        assert.match(
          r.stderr,
          /Apply failed with 2 conflicts: conflicts with "manager-a":\n- \.spec\.replicas\n- \.spec\.template\.spec\.containers\[name="nginx"\]\.image/,
        );
        assert.equal((await getMf()).spec.replicas, 1);
        await k(['apply', '--server-side', '--field-manager=manager-b', '--force-conflicts', '-f', '-'], MANAGER_B);
        const obj = await getMf();
        assert.equal(obj.spec.replicas, 3);
        assert.equal(obj.spec.template.spec.containers[0].image, 'nginx:1.26');
        assert.deepEqual(untimed(obj.metadata.managedFields), expectedAt('03-after-force-apply-manager-b'));
      });

      it('kubectl scale is recorded for the scale subresource; get --show-managed-fields shows what Kubernetes does', async () => {
        await k(['scale', 'deployment', 'mf', '--replicas=5']);
        // The pinned kubectl binaries are named kubectl.1.xx, and the User-Agent's program name is the manager.
        const expected = expectedAt('04-after-kubectl-scale').map((e) => (e.manager === 'kubectl' ? { ...e, manager: `kubectl.${version}` } : e));
        assert.deepEqual(untimed((await getMf()).metadata.managedFields), expected);
        const yaml = await k(['get', 'deployment', 'mf', '-o', 'yaml', '--show-managed-fields']);
        assert.match(yaml, /managedFields:\n {2}- apiVersion: apps\/v1\n {4}fieldsType: FieldsV1\n {4}fieldsV1:\n {6}f:metadata:\n/);
        assert.match(yaml, /manager: kubectl\.1\.\d+\n {4}operation: Update\n {4}subresource: scale\n/);
        assert.doesNotMatch(await k(['get', 'deployment', 'mf', '-o', 'yaml']), /managedFields/);
      });

      it('kubectl (field manager "kubectl") takes over what its client-side apply set, even changed, without conflicts', async () => {
        const manifest = CSA.replace('name: mf', 'name: lk');
        await k(['apply', '-f', '-'], manifest);
        const changed = manifest.replace('nginx:1.25', 'nginx:1.26').replace('replicas: 1', 'replicas: 2');
        // Another manager would conflict with kubectl-client-side-apply on these fields.
        const other = await raw(['apply', '--server-side', '--field-manager=someone', '-f', '-'], changed);
        assert.match(other.stderr, /Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using apps\/v1:/);
        await k(['apply', '--server-side', '--field-manager=kubectl', '-f', '-'], changed);
        const obj = JSON.parse(await k(['get', 'deployment', 'lk', '-o', 'json', '--show-managed-fields'])) as any;
        assert.equal(obj.spec.template.spec.containers[0].image, 'nginx:1.26');
        assert.equal(obj.spec.replicas, 2);
        // kubectl migrated its client-side apply entry (what else it records is its own business).
        const managers = obj.metadata.managedFields.map((e: any) => `${e.manager}/${e.operation}`);
        assert.ok(managers.includes('kubectl/Apply'), managers.join(' '));
        assert.ok(!managers.includes('kubectl-client-side-apply/Update'), managers.join(' '));
      });

      it('kubectl diff --server-side shows the change and changes nothing; removing a field from the file removes it', async () => {
        const changed = MANAGER_A.replace('owner: manager-a', 'owner: manager-z').replace('replicas: 1', 'replicas: 5').replace('nginx:1.25', 'nginx:1.26');
        const rvBefore = (await getMf()).metadata.resourceVersion;
        const diff = await raw(['diff', '--server-side', '--field-manager=manager-a', '--force-conflicts', '-f', '-'], changed);
        assert.equal(diff.code, 1, diff.stderr);
        assert.match(diff.stdout, /^-\s+owner: manager-a$/m);
        assert.match(diff.stdout, /^\+\s+owner: manager-z$/m);
        assert.equal((await getMf()).metadata.resourceVersion, rvBefore);

        const withoutOwner = changed.replace(/^\s+owner: manager-z\n/m, '');
        await k(['apply', '--server-side', '--field-manager=manager-a', '--force-conflicts', '-f', '-'], withoutOwner);
        const obj = await getMf();
        assert.deepEqual(obj.metadata.labels, { app: 'mf' });
        const a = obj.metadata.managedFields.find((e: any) => e.manager === 'manager-a');
        assert.deepEqual(a.fieldsV1['f:metadata'], { 'f:labels': { 'f:app': {} } });
      });
    });
  }

  describe('over HTTP', () => {
    const NS = '/apis/apps/v1/namespaces/ssa-http/deployments';
    const APPLY = 'application/apply-patch+yaml';
    const deployment = (replicas: number, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: nginx${extra}}]
`;

    before(async () => {
      const r = await c.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ssa-http' } });
      assert.equal(r.status, 201, r.text);
    });

    it('creates with 201, updates with 200, requires a fieldManager, answers 409 with the conflicting fields', async () => {
      const missing = await c.patch(`${NS}/web`, deployment(1), APPLY);
      assert.equal(missing.status, 422, missing.text);
      assert.match(missing.json.message, /fieldManager: Required value: is required for apply patch/);
      const created = await c.patch(`${NS}/web?fieldManager=one`, deployment(1), APPLY);
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.json.metadata.managedFields.map((e: any) => [e.manager, e.operation]), [['one', 'Apply']]);
      const again = await c.patch(`${NS}/web?fieldManager=one`, deployment(1), APPLY);
      assert.equal(again.status, 200);
      assert.equal(again.json.metadata.resourceVersion, created.json.metadata.resourceVersion);

      const conflict = await c.patch(`${NS}/web?fieldManager=two`, deployment(2), APPLY);
      assert.equal(conflict.status, 409);
      assert.deepEqual(conflict.json, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Apply failed with 1 conflict: conflict with "one": .spec.replicas',
        reason: 'Conflict',
        details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "one"', field: '.spec.replicas' }] },
        code: 409,
      });
      // An Update manager is named with its version.
      const edit = await c.patch(`${NS}/web?fieldManager=editor`, { spec: { replicas: 4 } }, 'application/merge-patch+json');
      assert.equal(edit.status, 200, edit.text);
      const third = await c.patch(`${NS}/web?fieldManager=three`, deployment(6), APPLY);
      assert.equal(third.json.message, 'Apply failed with 1 conflict: conflict with "editor" using apps/v1: .spec.replicas');
    });

    it('dryRun=All changes nothing; bodies that are not a Deployment are 400s naming the problem', async () => {
      const before = (await c.get(`${NS}/web`)).json;
      const dry = await c.patch(`${NS}/web?fieldManager=one&dryRun=All&force=true`, deployment(9), APPLY);
      assert.equal(dry.status, 200, dry.text);
      assert.equal(dry.json.spec.replicas, 9);
      assert.deepEqual((await c.get(`${NS}/web`)).json, before);
      const dryCreate = await c.patch(`${NS}/ghost?fieldManager=one&dryRun=All`, deployment(1).replace('name: web', 'name: ghost'), APPLY);
      assert.equal(dryCreate.status, 201, dryCreate.text);
      assert.equal((await c.get(`${NS}/ghost`)).status, 404);

      const unknown = await c.patch(`${NS}/web?fieldManager=one`, deployment(1).replace('  replicas: 1', '  replicas: 1\n  replicaz: 2'), APPLY);
      assert.equal(unknown.status, 400);
      assert.equal(unknown.json.message, 'failed to create typed patch object (ssa-http/web; apps/v1, Kind=Deployment): .spec.replicaz: field not declared in schema');
      const wrongKind = await c.patch(`${NS}/web?fieldManager=one`, deployment(1).replace('kind: Deployment', 'kind: ReplicaSet'), APPLY);
      assert.equal(wrongKind.status, 400);
      assert.equal(wrongKind.json.message, 'invalid object type: apps/v1, Kind=ReplicaSet');
      const wrongName = await c.patch(`${NS}/web?fieldManager=one`, deployment(1).replace('name: web', 'name: other'), APPLY);
      assert.equal(wrongName.status, 400);
      const dup = await c.patch(`${NS}/web?fieldManager=one&fieldValidation=Strict`, deployment(1).replace('  replicas: 1', '  replicas: 1\n  replicas: 1'), APPLY);
      assert.equal(dup.status, 400);
      assert.match(dup.json.message, /^error strict decoding YAML: .*key "replicas" already set in map/s);
      const invalid = await c.patch(`${NS}/web?fieldManager=one&force=true`, deployment(-1), APPLY);
      assert.equal(invalid.status, 422, invalid.text);
      assert.equal(invalid.json.details.causes[0].field, 'spec.replicas');
      const cbor = await c.patch(`${NS}/web?fieldManager=one`, deployment(1), 'application/apply-patch+cbor');
      assert.equal(cbor.status, 415);
    });

    it('status and scale are applied and owned as subresources', async () => {
      const status = await c.patch(`${NS}/web/status?fieldManager=ctl`, 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nstatus: {replicas: 7}\nspec: {replicas: 100}\n', APPLY);
      assert.equal(status.status, 200, status.text);
      assert.equal(status.json.status.replicas, 7);
      assert.notEqual(status.json.spec.replicas, 100);
      const entry = status.json.metadata.managedFields.find((e: any) => e.manager === 'ctl');
      assert.deepEqual([entry.operation, entry.subresource, entry.fieldsV1], ['Apply', 'status', { 'f:status': { 'f:replicas': {} } }]);

      const scale = await c.patch(`/apis/apps/v1/namespaces/ssa-http/deployments/web/scale?fieldManager=hpa&force=true`, 'apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: web}\nspec: {replicas: 3}\n', APPLY);
      assert.equal(scale.status, 200, scale.text);
      assert.equal(scale.json.kind, 'Scale');
      assert.equal(scale.json.spec.replicas, 3);
      const obj = (await c.get(`${NS}/web`)).json;
      const hpa = obj.metadata.managedFields.find((e: any) => e.manager === 'hpa');
      assert.deepEqual([hpa.operation, hpa.subresource, hpa.fieldsV1], ['Apply', 'scale', { 'f:spec': { 'f:replicas': {} } }]);
      assert.ok(!obj.metadata.managedFields.some((e: any) => e.manager === 'editor'), 'the forced apply took .spec.replicas from its Update manager');
    });

    it('Update entries: the User-Agent names the manager, [{}] resets managedFields', async () => {
      const r = await c.post(`${NS}`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ua' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.metadata.managedFields.map((e: any) => [e.manager, e.operation, e.apiVersion]), [['vectors-client', 'Update', 'apps/v1']]);
      assert.match(r.json.metadata.managedFields[0].time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const long = await c.patch(`${NS}/ua?fieldManager=${'m'.repeat(129)}`, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json');
      assert.equal(long.status, 422, long.text);
      assert.equal(long.json.details.causes[0].field, 'fieldManager');
      const reset = await c.patch(`${NS}/ua`, { metadata: { managedFields: [{}] } }, 'application/merge-patch+json');
      assert.equal(reset.status, 200, reset.text);
      assert.equal(reset.json.metadata.managedFields, undefined);
    });
  });
});
