// Creates from one template over HTTP (the fast path's create-body memo, registry/fast-path/
// create-bodies.ts, and the field manager's reuse of their fields), with the fast path on and off:
// each pod gets its own name, the warnings of its body and the same managedFields.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from './server.js';

const podBody = (name: string, extra = '') =>
  Buffer.from(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}","labels":{"app":"web"}},"spec":{${extra}"containers":[{"name":"c","image":"nginx"}]}}`);

for (const enabled of [true, false]) {
  describe(`creates from one template over HTTP, fast path ${enabled ? 'on' : 'off'}`, () => {
    let server: ApiServer;
    before(async () => {
      server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, fastPath: enabled });
      assert.equal(server.registry.fastPath.enabled, enabled);
    });
    after(() => server.close());

    const create = async (path: string, body: string) => {
      const r = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: r.status, warning: r.headers.get('warning'), body: (await r.json()) as any };
    };

    it('gives each pod its name, the warnings of its body and the same managedFields', async () => {
      await create('/api/v1/namespaces/default/serviceaccounts', '{"metadata":{"name":"default"}}');
      const results = [];
      for (const name of ['t-1', 't-2', 't-3']) results.push(await create('/api/v1/namespaces/default/pods', podBody(name, '"bogus":1,').toString()));
      assert.deepEqual(results.map((r) => [r.status, r.body.metadata.name]), [[201, 't-1'], [201, 't-2'], [201, 't-3']]);
      for (const r of results) assert.match(r.warning ?? '', /unknown field \\"spec.bogus\\"/);
      const fields = results.map((r) => JSON.stringify(r.body.metadata.managedFields.map((e: { fieldsV1: unknown }) => e.fieldsV1)));
      assert.equal(new Set(fields).size, 1);
      assert.match(fields[0]!, /"f:labels":\{".":\{\},"f:app":\{\}\}/);
    });

    it('names each namespace in its own metadata.name label (defaults run on every copy)', async () => {
      for (const name of ['memo-a', 'memo-b', 'memo-c']) {
        const r = await create('/api/v1/namespaces', `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"${name}"}}`);
        assert.equal(r.status, 201);
        assert.equal(r.body.metadata.labels['kubernetes.io/metadata.name'], name);
      }
    });

    it('refuses an invalid name in a remembered body as it would any', async () => {
      const r = await create('/api/v1/namespaces/default/pods', podBody('Not_Valid', '"bogus":1,').toString());
      assert.equal(r.status, 422);
      assert.equal(r.body.details.name, 'Not_Valid');
    });
  });
}
