// Conversion strategy Webhook through the API server's handlers: bodies in a non-storage version
// are converted before they are stored and objects are converted before they are served, in one
// call per request (a list converts all its items at once); a failing webhook fails the request
// and writes nothing. The webhook here is a function; the HTTPS client is tested on its own.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import type { ConversionWebhook } from '../../registry/custom/index.js';
import { startApiServer, type ApiServer } from '../server.js';

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'thermostats.conv.example.com' },
  spec: {
    group: 'conv.example.com',
    scope: 'Namespaced',
    names: { plural: 'thermostats', singular: 'thermostat', kind: 'Thermostat', listKind: 'ThermostatList' },
    conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://127.0.0.1:1/convert' }, conversionReviewVersions: ['v1'] } },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { celsius: { type: 'number' } } } } } } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { fahrenheit: { type: 'number' } } } } } } },
    ],
  },
};

let calls: Array<{ count: number; to: string }> = [];
let failing = false;

/** Celsius in v1, Fahrenheit in v2. */
const webhook: ConversionWebhook = async (_crd, objects, to) => {
  calls.push({ count: objects.length, to });
  if (failing) throw StatusError.internal('conversion webhook for conv.example.com/v2, Kind=Thermostat failed: connection refused');
  return objects.map((o) => {
    const spec = (o.spec ?? {}) as Record<string, number>;
    const next: KubeObject = { ...o, apiVersion: to };
    next.spec = to.endsWith('/v2') ? { fahrenheit: (spec.celsius ?? 0) * 1.8 + 32 } : { celsius: ((spec.fahrenheit ?? 32) - 32) / 1.8 };
    return next;
  });
};

let server: ApiServer;
const call = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
  const res = await fetch(server.url + path, { method, headers: { 'content-type': contentType, accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
};

describe('CRD conversion strategy Webhook', () => {
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {}, admissionPlugins: ['NamespaceLifecycle'], conversionWebhook: webhook });
    await call('POST', '/api/v1/namespaces', { metadata: { name: 'home' } });
    assert.equal((await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD)).status, 201);
    for (let i = 0; i < 200 && (await call('GET', '/apis/conv.example.com/v2/namespaces/home/thermostats')).status !== 200; i++) await new Promise((r) => setTimeout(r, 10));
  });
  after(() => server.close());

  it('a create in v2 is stored in v1 and answered in v2', async () => {
    calls = [];
    const created = await call('POST', '/apis/conv.example.com/v2/namespaces/home/thermostats', { apiVersion: 'conv.example.com/v2', kind: 'Thermostat', metadata: { name: 'hall' }, spec: { fahrenheit: 212 } });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    assert.deepEqual([created.json.apiVersion, created.json.spec], ['conv.example.com/v2', { fahrenheit: 212 }]);
    const stored = await call('GET', '/apis/conv.example.com/v1/namespaces/home/thermostats/hall');
    assert.deepEqual([stored.json.apiVersion, stored.json.spec], ['conv.example.com/v1', { celsius: 100 }]);
    assert.deepEqual(calls, [{ count: 1, to: 'conv.example.com/v1' }, { count: 1, to: 'conv.example.com/v2' }]);
  });

  it('a list in v2 converts all its items in one call; reads in the storage version call nothing', async () => {
    await call('POST', '/apis/conv.example.com/v1/namespaces/home/thermostats', { apiVersion: 'conv.example.com/v1', kind: 'Thermostat', metadata: { name: 'attic' }, spec: { celsius: 0 } });
    calls = [];
    const list = await call('GET', '/apis/conv.example.com/v2/namespaces/home/thermostats');
    assert.equal(list.status, 200, JSON.stringify(list.json));
    assert.deepEqual(list.json.items.map((i: any) => [i.apiVersion, i.metadata.name, i.spec.fahrenheit]), [['conv.example.com/v2', 'attic', 32], ['conv.example.com/v2', 'hall', 212]]);
    assert.deepEqual(calls, [{ count: 2, to: 'conv.example.com/v2' }]);
    calls = [];
    await call('GET', '/apis/conv.example.com/v1/namespaces/home/thermostats');
    assert.deepEqual(calls, []);
  });

  it('a merge patch in v2 applies to the v2 form', async () => {
    const patched = await call('PATCH', '/apis/conv.example.com/v2/namespaces/home/thermostats/attic', { spec: { fahrenheit: 50 } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, JSON.stringify(patched.json));
    assert.equal(patched.json.spec.fahrenheit, 50);
    assert.equal((await call('GET', '/apis/conv.example.com/v1/namespaces/home/thermostats/attic')).json.spec.celsius, 10);
  });

  it('a failing webhook fails the request with its Status and writes nothing', async () => {
    failing = true;
    try {
      const r = await call('POST', '/apis/conv.example.com/v2/namespaces/home/thermostats', { apiVersion: 'conv.example.com/v2', kind: 'Thermostat', metadata: { name: 'cellar' }, spec: { fahrenheit: 50 } });
      assert.equal(r.status, 500);
      assert.match(r.json.message, /conversion webhook for conv\.example\.com\/v2, Kind=Thermostat failed/);
      assert.equal((await call('GET', '/apis/conv.example.com/v1/namespaces/home/thermostats/cellar')).status, 404);
    } finally {
      failing = false;
    }
  });
});
