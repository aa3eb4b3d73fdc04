// An operator as people write them with @kubernetes/client-node, run against `kubelite up`: an
// informer on a custom resource (Website), a finalizer it adds and removes, a Deployment it owns
// through an owner reference, and the custom resource's status written through the status
// subresource from the Deployment's. The cluster's controllers and simulated node run the pods;
// deleting the Website lets the operator finalize it and the garbage collector delete its Deployment.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

const GROUP = 'example.com';
const VERSION = 'v1';
const PLURAL = 'websites';
const FINALIZER = 'example.com/cleanup';
const NS = 'shop';

const WEBSITE_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: websites.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: websites, singular: website, kind: Website}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [image]
            properties:
              image: {type: string}
              replicas: {type: integer, minimum: 0, default: 1}
          status:
            type: object
            properties:
              availableReplicas: {type: integer}
              deployment: {type: string}
`;

interface Website extends k8s.KubernetesObject {
  spec: { image: string; replicas?: number };
  status?: { availableReplicas?: number; deployment?: string };
}

/** The operator: reconciles each Website into a Deployment it owns, and reports its availability. */
class WebsiteOperator {
  private informer: k8s.Informer<Website> & k8s.ObjectCache<Website>;
  private readonly custom: k8s.CustomObjectsApi;
  private readonly apps: k8s.AppsV1Api;
  private deployments: k8s.Informer<k8s.V1Deployment> & k8s.ObjectCache<k8s.V1Deployment>;
  readonly errors: unknown[] = [];
  private chain = Promise.resolve();

  constructor(kc: k8s.KubeConfig) {
    this.custom = kc.makeApiClient(k8s.CustomObjectsApi);
    this.apps = kc.makeApiClient(k8s.AppsV1Api);
    this.informer = k8s.makeInformer<Website>(kc, `/apis/${GROUP}/${VERSION}/namespaces/${NS}/${PLURAL}`, () =>
      this.custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL }) as Promise<k8s.KubernetesListObject<Website>>,
    );
    this.deployments = k8s.makeInformer(kc, `/apis/apps/v1/namespaces/${NS}/deployments`, () => this.apps.listNamespacedDeployment({ namespace: NS }));
    const enqueue = (w: Website) => this.enqueue(w.metadata!.name!);
    this.informer.on('add', enqueue);
    this.informer.on('update', enqueue);
    this.deployments.on('update', (d) => {
      const owner = d.metadata?.ownerReferences?.find((o) => o.kind === 'Website');
      if (owner) this.enqueue(owner.name);
    });
    for (const inf of [this.informer, this.deployments]) inf.on('error', (err) => this.errors.push(err));
  }

  async start(): Promise<void> {
    await this.informer.start();
    await this.deployments.start();
  }

  async stop(): Promise<void> {
    await this.informer.stop();
    await this.deployments.stop();
  }

  private enqueue(name: string): void {
    this.chain = this.chain.then(() => this.reconcile(name)).catch((err) => {
      // Conflicts and races are retried on the next event, as a work queue would.
      if (!(err instanceof k8s.ApiException && (err.code === 409 || err.code === 404))) this.errors.push(err);
    });
  }

  private async reconcile(name: string): Promise<void> {
    const site = this.informer.get(name, NS);
    if (!site) return;
    const finalizers = site.metadata?.finalizers ?? [];
    if (site.metadata?.deletionTimestamp) {
      if (finalizers.includes(FINALIZER)) {
        await this.custom.patchNamespacedCustomObject({
          group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name,
          body: [{ op: 'replace', path: '/metadata/finalizers', value: finalizers.filter((f) => f !== FINALIZER) }],
        });
      }
      return;
    }
    if (!finalizers.includes(FINALIZER)) {
      await this.custom.patchNamespacedCustomObject({
        group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name,
        body: [{ op: 'add', path: '/metadata/finalizers', value: [...finalizers, FINALIZER] }],
      });
      return;
    }
    const replicas = site.spec.replicas ?? 1;
    let deployment = this.deployments.get(name, NS);
    if (!deployment) {
      deployment = await this.apps.createNamespacedDeployment({
        namespace: NS,
        body: {
          metadata: { name, ownerReferences: [{ apiVersion: `${GROUP}/${VERSION}`, kind: 'Website', name, uid: site.metadata!.uid!, controller: true, blockOwnerDeletion: true }] },
          spec: { replicas, selector: { matchLabels: { website: name } }, template: { metadata: { labels: { website: name } }, spec: { containers: [{ name: 'web', image: site.spec.image }] } } },
        },
      });
    } else if (deployment.spec?.replicas !== replicas) {
      await this.apps.patchNamespacedDeployment({ namespace: NS, name, body: [{ op: 'replace', path: '/spec/replicas', value: replicas }] });
      return;
    }
    const available = deployment.status?.availableReplicas ?? 0;
    if (site.status?.availableReplicas !== available || site.status?.deployment !== name) {
      await this.custom.patchNamespacedCustomObjectStatus({
        group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name,
        body: [{ op: 'add', path: '/status', value: { availableReplicas: available, deployment: name } }],
      });
    }
  }
}

let cluster: Cluster;
let kc: k8s.KubeConfig;
let operator: WebsiteOperator;
let custom: k8s.CustomObjectsApi;

const getSite = async (name: string): Promise<Website | undefined> => {
  try {
    return (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name })) as Website;
  } catch (err) {
    if (err instanceof k8s.ApiException && err.code === 404) return undefined;
    throw err;
  }
};

describe('an operator written with @kubernetes/client-node on kubelite up', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 1 });
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: WEBSITE_CRD });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for', 'condition=Established', '--timeout', '10s', 'crd/websites.example.com']);
    await kubectlOk(cluster.kubeconfig, ['create', 'namespace', NS]);
    kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfig);
    custom = kc.makeApiClient(k8s.CustomObjectsApi);
    operator = new WebsiteOperator(kc);
    await operator.start();
  });
  after(async () => {
    await operator?.stop();
    await cluster?.stop();
  });

  it('converges: a Website gets its finalizer, an owned Deployment, and its status from the Deployment', async () => {
    await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Website', metadata: { name: 'shop' }, spec: { image: 'nginx', replicas: 2 } } });
    const site = await waitFor(async () => {
      const s = await getSite('shop');
      return s?.status?.availableReplicas === 2 ? s : undefined;
    }, 'the Website to report 2 available replicas', 60_000);
    assert.deepEqual(site.metadata?.finalizers, [FINALIZER]);
    assert.equal(site.status?.deployment, 'shop');
    const deployment = JSON.parse(await kubectlOk(cluster.kubeconfig, ['-n', NS, 'get', 'deployment', 'shop', '-o', 'json']));
    assert.deepEqual(deployment.metadata.ownerReferences.map((o: any) => [o.kind, o.name, o.uid]), [['Website', 'shop', site.metadata?.uid]]);
  });

  it('follows a change of the spec (the schema default filled replicas for the first one)', async () => {
    await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Website', metadata: { name: 'blog' }, spec: { image: 'nginx' } } });
    await waitFor(async () => (await getSite('blog'))?.status?.availableReplicas === 1, 'blog to have its defaulted 1 replica', 60_000);
    await custom.patchNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name: 'blog', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] });
    await waitFor(async () => (await getSite('blog'))?.status?.availableReplicas === 3, 'blog to scale to 3', 60_000);
  });

  it('deleting a Website: the operator removes its finalizer, the garbage collector deletes its Deployment', async () => {
    await custom.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name: 'shop' });
    await waitFor(async () => (await getSite('shop')) === undefined, 'the Website to be gone', 30_000);
    await waitFor(async () => {
      const out = await kubectlOk(cluster.kubeconfig, ['-n', NS, 'get', 'deployments', '-o', 'name']);
      return !out.includes('deployment.apps/shop');
    }, 'the owned Deployment to be collected', 60_000);
    assert.deepEqual(operator.errors, []);
  });
});
