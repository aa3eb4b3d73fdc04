// End-to-end: `kubectl get` of a paged list, whose Tables the API server makes from the watch
// cache's bytes (rows of PartialObjectMetadata: src/apiserver/table-list.ts), prints what the
// whole-object Tables (includeObject=Object, which kubectl asks for with --sort-by) print; the
// rows' metadata and cells are those of the objects themselves, through real kubectl 1.33.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '../support/http.js';
import { kubectlOk } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

const pod = (name: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'tables' }, annotations },
  spec: { containers: [{ name: 'c', image: 'nginx' }], nodeName: 'node-a' },
});

/** kubectl's table with the AGE column (which moves between two requests) left out, rows in order. */
function withoutAge(out: string): string[] {
  const lines = out.trimEnd().split('\n');
  const age = lines[0]!.indexOf('AGE');
  assert.ok(age > 0, lines[0]);
  return lines.map((l) => `${l.slice(0, age)}|${l.slice(age).replace(/^\S+\s*/, '')}`);
}

describe('Table lists from the watch cache', () => {
  let server: RunningApiserver;
  let c: Client;
  before(async () => {
    server = await startApiserver();
    c = new Client(server.url);
    for (const ns of ['tables-a', 'tables-b']) await c.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (let i = 0; i < 6; i++) await c.create('/api/v1/namespaces/tables-a/pods', pod(`p-${i}`));
    // Metadata with the characters Go's encoder escapes and non-ASCII text; a finished pod (its
    // row has a Completed condition, STATUS Succeeded); a pod being deleted (Terminating, held by a finalizer).
    await c.create('/api/v1/namespaces/tables-b/pods', pod('escapes', { html: '<b>&</b>', note: 'größe 🚀' }));
    await c.create('/api/v1/namespaces/tables-b/pods', pod('done'));
    const status = await c.patch('/api/v1/namespaces/tables-b/pods/done/status', { status: { phase: 'Succeeded' } });
    assert.equal(status.status, 200, status.text);
    const held = await c.create('/api/v1/namespaces/tables-b/pods', { ...pod('held'), metadata: { ...pod('held').metadata, finalizers: ['example.com/hold'] } });
    assert.equal((await c.delete(`/api/v1/namespaces/tables-b/pods/${held.metadata.name}`)).status, 200);
  });
  after(async () => {
    if (server) {
      await c.patch('/api/v1/namespaces/tables-b/pods/held', { metadata: { finalizers: null } });
      await server.stop();
    }
  });

  it('kubectl get -A in pages prints what the whole-object Tables print', async () => {
    const paged = await kubectlOk(server.kubeconfig, ['get', 'pods', '-A', '-o', 'wide', '--chunk-size', '4']);
    // --sort-by makes kubectl ask for includeObject=Object: Tables encoded from the whole objects.
    const whole = await kubectlOk(server.kubeconfig, ['get', 'pods', '-A', '-o', 'wide', '--sort-by', '.metadata.namespace']);
    assert.deepEqual(withoutAge(paged), withoutAge(whole));
    assert.equal(withoutAge(paged).length, 10, paged);
    assert.match(paged, /tables-b\s+done\s+0\/1\s+Succeeded/);
    assert.match(paged, /tables-b\s+held\s+0\/1\s+Terminating/);
  });

  it('each row carries the object’s own metadata as PartialObjectMetadata, and null with includeObject=None', async () => {
    const list = await c.get('/api/v1/pods');
    assert.equal(list.status, 200);
    const byName = new Map((list.json.items as any[]).map((p) => [p.metadata.name, p]));
    const table = await c.get('/api/v1/pods?limit=3', { accept: TABLE });
    assert.equal(table.status, 200, table.text);
    assert.equal(table.json.kind, 'Table');
    assert.equal(table.json.rows.length, 3);
    assert.ok(table.json.metadata.continue);
    const rest = await c.get(`/api/v1/pods?limit=100&continue=${encodeURIComponent(table.json.metadata.continue)}`, { accept: TABLE });
    const rows = [...table.json.rows, ...rest.json.rows];
    assert.equal(rows.length, byName.size);
    for (const row of rows) {
      const obj = byName.get(row.object.metadata.name);
      assert.deepEqual(row.object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
      assert.equal(row.cells[0], obj.metadata.name);
    }
    const escapes = rows.find((r) => r.object.metadata.name === 'escapes');
    assert.equal(escapes.object.metadata.annotations.html, '<b>&</b>');
    assert.ok(table.text.includes('\\u003c') || rest.text.includes('\\u003cb\\u003e\\u0026'), 'Go’s escapes in the body');
    const none = await c.get('/api/v1/namespaces/tables-a/pods?includeObject=None', { accept: TABLE });
    assert.deepEqual(none.json.rows.map((r: any) => r.object), Array(6).fill(null));
    const v1beta1 = await c.get('/api/v1/namespaces/tables-a/pods', { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' });
    assert.equal(v1beta1.json.apiVersion, 'meta.k8s.io/v1beta1');
    assert.equal(v1beta1.json.rows[0].object.apiVersion, 'meta.k8s.io/v1beta1');
  });
});
