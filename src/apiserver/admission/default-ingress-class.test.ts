// DefaultIngressClass admission: which Ingresses get a class, and which class when several are
// marked default (the newest, then the first name).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { StatusError } from '../../machinery/status.js';
import { DefaultIngressClass, IS_DEFAULT_INGRESS_CLASS } from './default-ingress-class.js';
import type { AdmissionAttributes } from './types.js';

const ingresses = findResource('networking.k8s.io', 'v1', 'ingresses') as KindVersion;

function ingressClass(name: string, created: string, isDefault?: string): KubeObject {
  const annotations = isDefault === undefined ? {} : { [IS_DEFAULT_INGRESS_CLASS]: isDefault };
  return { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name, creationTimestamp: created, annotations }, spec: { controller: 'example.com/c' } };
}

function ingress(spec: KubeObject = {}, annotations: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: 'ns', annotations }, spec: { defaultBackend: { service: { name: 'svc', port: { number: 80 } } }, ...spec } };
}

function attrs(object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return { operation: 'CREATE', kind: ingresses, group: 'networking.k8s.io', resource: 'ingresses', subresource: '', namespace: 'ns', name: '', object, user: { name: 'u', groups: [] }, dryRun: false, ...over };
}

async function admitted(classes: KubeObject[] | undefined, object: KubeObject, over: Partial<AdmissionAttributes> = {}): Promise<unknown> {
  await new DefaultIngressClass({ ingressClasses: () => classes }).admit(attrs(object, over));
  return (object.spec as KubeObject).ingressClassName;
}

describe('DefaultIngressClass admission', () => {
  it('gives an Ingress without a class the default class', async () => {
    const classes = [ingressClass('plain', '2026-01-01T00:00:00Z'), ingressClass('nginx', '2026-01-02T00:00:00Z', 'true'), ingressClass('off', '2026-01-03T00:00:00Z', 'false')];
    assert.equal(await admitted(classes, ingress()), 'nginx');
  });

  it('leaves the Ingress alone when no class is the default', async () => {
    assert.equal(await admitted([ingressClass('plain', '2026-01-01T00:00:00Z', 'True')], ingress()), undefined);
    assert.equal(await admitted([], ingress()), undefined);
  });

  it('picks the newest of several defaults, then the first by name', async () => {
    const older = ingressClass('older', '2026-01-01T00:00:00Z', 'true');
    const newer = ingressClass('newer', '2026-02-01T00:00:00Z', 'true');
    assert.equal(await admitted([older, newer], ingress()), 'newer');
    const twinB = ingressClass('b', '2026-03-01T00:00:00Z', 'true');
    const twinA = ingressClass('a', '2026-03-01T00:00:00Z', 'true');
    assert.equal(await admitted([older, twinB, twinA], ingress()), 'a');
  });

  it('keeps a class the Ingress names, in spec.ingressClassName or the legacy annotation', async () => {
    const classes = [ingressClass('nginx', '2026-01-02T00:00:00Z', 'true')];
    assert.equal(await admitted(classes, ingress({ ingressClassName: 'other' })), 'other');
    assert.equal(await admitted(classes, ingress({}, { 'kubernetes.io/ingress.class': 'legacy' })), undefined);
  });

  it('only defaults on create, of the ingresses resource itself', async () => {
    const classes = [ingressClass('nginx', '2026-01-02T00:00:00Z', 'true')];
    assert.equal(await admitted(classes, ingress(), { operation: 'UPDATE' }), undefined);
    assert.equal(await admitted(classes, ingress(), { subresource: 'status' }), undefined);
  });

  it('refuses while its view of the IngressClasses has not synced', async () => {
    await assert.rejects(admitted(undefined, ingress()), (err: unknown) => err instanceof StatusError && err.code === 403 && /not yet ready to handle request/.test(err.message));
  });
});
