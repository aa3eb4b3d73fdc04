import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { Deployment } from '../../api/apps/v1.js';
import { TESTDATA, readJson } from '../../api/vectors.testutil.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { StatusError } from '../status.js';
import { apply, kindFields, trackUpdate, type Actor } from './index.js';

type Obj = Record<string, any>;
const kind = kindFields(Deployment, true);
const yamlVector = (name: string) => parseYaml(readFileSync(join(TESTDATA, 'managed-fields', name), 'utf8')) as Obj;
const json = (...p: string[]) => readJson('managed-fields', ...p) as Obj;
const at = (iso: string) => Date.parse(iso);
const actor = (manager: string, time: string, subresource = ''): Actor => ({ manager, apiVersion: 'apps/v1', subresource, now: at(time) });
const opts = (force = false) => ({ force, objectName: 'vectors/mf', gvkString: 'apps/v1, Kind=Deployment' });
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const mf = (o: Obj) => JSON.stringify(o.metadata.managedFields);

describe('field manager', () => {
  it('a create records its manager as Kubernetes does', () => {
    const created = json('requests', '01-client-side-apply.POST.response.json');
    delete created.metadata.managedFields;
    trackUpdate(undefined, created, actor('kubectl-client-side-apply', '2026-11-22T02:40:03Z'), kind);
    assert.equal(mf(created), mf(json('requests', '01-client-side-apply.POST.response.json')));
  });

  it('apply, kubectl migration patch, re-apply, conflict, force: the managedFields of each step', () => {
    // Step 1: manager-a applies over the client-side-applied object (same values: no conflict).
    const live1 = json('01-after-client-side-apply.json');
    const r1: Obj = apply(clone(live1), yamlVector('mf-manager-a.yaml'), actor('manager-a', '2026-11-22T02:40:06Z'), kind, opts());
    assert.ok(r1.changed);
    assert.equal(r1.object.metadata.labels.owner, 'manager-a');
    const expected1 = json('requests', '02-server-side-apply-manager-a.PATCH.response.json');
    // The vector's live object had the controller's status entry from 02:40:03.
    assert.equal(mf(r1.object), mf(expected1));

    // Step 2: kubectl rewrites managedFields with a JSON patch (an update that changes nothing else).
    const patch = JSON.parse(readFileSync(join(TESTDATA, 'managed-fields', 'requests', '02-server-side-apply-manager-a.2.PATCH.json'), 'utf8')) as unknown[];
    const patched = applyJsonPatch(clone(r1.object), patch.slice(0, 1)) as Obj;
    trackUpdate(r1.object, patched, actor('manager-a', '2026-11-22T02:40:06Z'), kind);
    assert.equal(mf(patched), mf(json('requests', '02-server-side-apply-manager-a.2.PATCH.response.json')));

    // Step 3: the same apply again drops what only the client-side apply had set.
    const r3: Obj = apply(clone(patched), yamlVector('mf-manager-a.yaml'), actor('manager-a', '2026-11-22T02:40:06Z'), kind, opts());
    const expected3 = json('requests', '02-server-side-apply-manager-a.3.PATCH.response.json');
    assert.equal(mf(r3.object), mf(expected3));
    assert.equal(r3.object.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'], undefined);

    // A no-op re-apply changes nothing at all.
    const again = apply(clone(r3.object), yamlVector('mf-manager-a.yaml'), actor('manager-a', '2026-11-22T02:41:00Z'), kind, opts());
    assert.equal(again.changed, false);
    assert.equal(again.managedFieldsChanged, false);
    assert.equal(mf(again.object), mf(r3.object));

    // Step 4: manager-b conflicts on replicas and image; forced, it takes them.
    const live4 = json('02-after-server-side-apply-manager-a.json');
    assert.throws(
      () => apply(clone(live4), yamlVector('mf-manager-b.yaml'), actor('manager-b', '2026-11-22T02:40:10Z'), kind, opts()),
      (err: unknown) => {
        assert.ok(err instanceof StatusError);
        assert.equal(err.code, 409);
        assert.deepEqual(err.toStatus().details, JSON.parse(readFileSync(join(TESTDATA, 'managed-fields', 'requests', '03a-apply-manager-b-no-force.PATCH.response.json'), 'utf8')).details);
        assert.equal(err.message, JSON.parse(readFileSync(join(TESTDATA, 'managed-fields', 'requests', '03a-apply-manager-b-no-force.PATCH.response.json'), 'utf8')).message);
        return true;
      },
    );
    const r4: Obj = apply(clone(live4), yamlVector('mf-manager-b.yaml'), actor('manager-b', '2026-11-22T02:40:10Z'), kind, opts(true));
    assert.equal(r4.object.spec.replicas, 3);
    const byStep = json('managedFields-by-step.json');
    const want = (byStep['03-after-force-apply-manager-b'].managedFields as Obj[]).filter((e) => e.manager !== 'kube-controller-manager');
    assert.deepEqual((r4.object.metadata.managedFields as Obj[]).filter((e) => e.manager !== 'kube-controller-manager'), want);
  });

  it('an update takes changed fields from other managers; [{}] resets; invalid lists fall back to the live ones', () => {
    const live = json('02-after-server-side-apply-manager-a.json');
    const next = clone(live);
    next.spec.replicas = 7;
    trackUpdate(live, next, actor('kubectl-edit', '2026-11-22T03:00:00Z'), kind);
    const entries = next.metadata.managedFields as Obj[];
    const edit = entries.find((e) => e.manager === 'kubectl-edit')!;
    assert.deepEqual(edit.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    assert.equal(edit.time, '2026-11-22T03:00:00Z');
    assert.equal(entries.find((e) => e.manager === 'manager-a')!.fieldsV1['f:spec']['f:replicas'], undefined);

    const reset = clone(live);
    reset.metadata.managedFields = [{}];
    trackUpdate(live, reset, actor('x', '2026-11-22T03:00:00Z'), kind);
    assert.equal(reset.metadata.managedFields, undefined);

    const invalid = clone(live);
    invalid.metadata.managedFields = [{ manager: 'm', operation: 'Bogus', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: {} }];
    trackUpdate(live, invalid, actor('x', '2026-11-22T03:00:00Z'), kind);
    assert.equal(mf(invalid), mf(live));
  });

  it('the status subresource owns status separately', () => {
    const live = json('02-after-server-side-apply-manager-a.json');
    const next = clone(live);
    next.status.replicas = 9;
    next.spec.replicas = 9; // ignored: /status does not own spec
    trackUpdate(live, next, actor('ctl', '2026-11-22T03:00:00Z', 'status'), kind);
    const e = (next.metadata.managedFields as Obj[]).find((x) => x.manager === 'ctl')!;
    assert.equal(e.subresource, 'status');
    assert.deepEqual(e.fieldsV1, { 'f:status': { 'f:replicas': {} } });
  });
});

describe('field manager: creates from one template', () => {
  it('share the FieldsV1 of their first create, and differ when the content does', () => {
    const created = json('requests', '01-client-side-apply.POST.response.json');
    delete created.metadata.managedFields;
    const a = clone(created);
    const b = clone(created);
    b.metadata.name = 'other';
    b.metadata.uid = 'another-uid';
    const c = clone(created);
    c.metadata.labels.extra = 'x';
    for (const o of [a, b, c]) trackUpdate(undefined, o, actor('tmpl', '2026-11-22T02:40:03Z'), kind);
    assert.equal(mf(a), mf(b));
    assert.ok(Object.isFrozen(b.metadata.managedFields[0].fieldsV1));
    assert.deepEqual(Object.keys(c.metadata.managedFields[0].fieldsV1['f:metadata']['f:labels']), ['.', 'f:app', 'f:extra']);
    const other = clone(created);
    trackUpdate(undefined, other, actor('someone-else', '2026-11-22T02:40:04Z'), kind);
    assert.equal(other.metadata.managedFields[0].manager, 'someone-else');
    assert.equal(other.metadata.managedFields[0].time, '2026-11-22T02:40:04Z');
  });
});

describe('field manager: many updaters', () => {
  it('keeps at most 10 Update entries, the oldest merged into "ancient-changes"', () => {
    let live = json('02-after-server-side-apply-manager-a.json');
    delete live.metadata.managedFields;
    for (let i = 0; i < 12; i++) {
      const next = clone(live);
      next.metadata.labels[`l${i}`] = 'x';
      trackUpdate(live, next, actor(`editor-${String(i).padStart(2, '0')}`, `2026-11-22T03:00:${String(i).padStart(2, '0')}Z`), kind);
      live = next;
    }
    const entries = live.metadata.managedFields as Obj[];
    assert.equal(entries.filter((e) => e.operation === 'Update').length, 10);
    const ancient = entries.find((e) => e.manager === 'ancient-changes')!;
    assert.deepEqual(Object.keys(ancient.fieldsV1['f:metadata']['f:labels']).sort(), ['f:l0', 'f:l1', 'f:l2']);
    assert.ok(!entries.some((e) => ['editor-00', 'editor-01', 'editor-02'].includes(e.manager)));
  });
});
