import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../api/kinds.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { refused } from './admission.testutil.js';
import { AdmissionChain, enabledAdmissionPlugins } from './chain.js';
import { NamespaceLifecycle } from './namespace-lifecycle.js';
import { NodeRestriction } from './node-restriction.js';
import { DefaultTolerationSeconds } from './default-toleration-seconds.js';
import { ServiceAccountAdmission } from './service-account.js';
import type { AdmissionAttributes } from './types.js';

const ADMIN = { name: 'admin', groups: ['system:masters'] };
const NODE = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

function attrs(resource: string, over: Partial<AdmissionAttributes>): AdmissionAttributes {
  const [group, res] = resource.includes('/') ? resource.split('/') as [string, string] : ['', resource];
  const kind = findResource(group, 'v1', res) as KindVersion;
  return { operation: 'CREATE', kind, group, resource: res, subresource: '', namespace: 'ns', name: '', user: ADMIN, dryRun: false, ...over };
}

describe('admission chain', () => {
  it('enables Kubernetes order whatever the flags order, refuses unknown plugins', () => {
    assert.deepEqual(enabledAdmissionPlugins(), ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'NodeRestriction', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
    assert.deepEqual(enabledAdmissionPlugins(['NodeRestriction'], ['ServiceAccount', 'Priority', 'CertificateSigning']), ['NamespaceLifecycle', 'LimitRanger', 'NodeRestriction', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
    assert.throws(() => enabledAdmissionPlugins(['AlwaysPullImages']), /admission plugin "AlwaysPullImages" is not supported/);
  });

  it('runs every mutating plugin before any validating one, in order; the hook names the operation', async () => {
    const seen: string[] = [];
    const chain = new AdmissionChain([
      { name: 'a', admit: (x) => void seen.push(`a.admit ${x.operation}`), validate: (x) => void seen.push(`a.validate ${x.operation}`) },
      { name: 'b', admit: () => void seen.push('b.admit') },
    ]);
    const hook = chain.hook({ kind: findResource('', 'v1', 'configmaps')!, subresource: '', namespace: 'ns', name: 'c', user: ADMIN, dryRun: false })!;
    await hook.mutate!({}, undefined);
    await hook.validate!({}, undefined);
    await hook.mutate!({}, {});
    await hook.validate!(undefined, {});
    assert.deepEqual(seen, ['a.admit CREATE', 'b.admit', 'a.validate CREATE', 'a.admit UPDATE', 'b.admit', 'a.validate DELETE']);
    assert.equal(new AdmissionChain([]).hook({ kind: findResource('', 'v1', 'configmaps')!, subresource: '', namespace: '', name: '', user: ADMIN, dryRun: false }), undefined);
  });
});

describe('NamespaceLifecycle', () => {
  const phases: Record<string, string> = { live: 'Active', dying: 'Terminating' };
  const plugin = new NamespaceLifecycle({ namespacePhase: async (ns) => phases[ns] });

  it('missing namespace → 404, terminating → 403 on create only, deletes pass, immortal namespaces are not deleted', async () => {
    await plugin.admit(attrs('configmaps', { namespace: 'live', object: { metadata: { name: 'a' } } }));
    const missing = await refused(plugin.admit(attrs('configmaps', { namespace: 'gone', object: { metadata: { name: 'a' } } })));
    assert.equal(missing.toJson(), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"namespaces \\"gone\\" not found","reason":"NotFound","details":{"name":"gone","kind":"namespaces"},"code":404}\n');
    const dying = await refused(plugin.admit(attrs('configmaps', { namespace: 'dying', object: { metadata: { name: 'late' } } })));
    assert.equal(dying.code, 403);
    assert.equal(dying.message, 'configmaps "late" is forbidden: unable to create new content in namespace dying because it is being terminated');
    assert.deepEqual(dying.toStatus().details?.causes, [{ reason: 'NamespaceTerminating', message: 'namespace dying is being terminated', field: 'metadata.namespace' }]);
    await plugin.admit(attrs('configmaps', { operation: 'UPDATE', namespace: 'dying', name: 'a', object: {}, oldObject: {} }));
    // Deletes pass, even of what is left in a namespace already gone.
    await plugin.admit(attrs('configmaps', { operation: 'DELETE', namespace: 'gone', name: 'left', oldObject: {} }));
    const immortal = await refused(plugin.validate(attrs('namespaces', { operation: 'DELETE', namespace: '', name: 'kube-system', oldObject: {} })));
    assert.equal(immortal.message, 'namespaces "kube-system" is forbidden: this namespace may not be deleted');
    await plugin.validate(attrs('namespaces', { operation: 'DELETE', namespace: '', name: 'live', oldObject: {} }));
  });
});

describe('ServiceAccount admission', () => {
  const accounts: Record<string, KubeObject> = {
    'ns/default': { metadata: { name: 'default' } },
    'ns/quiet': { metadata: { name: 'quiet' }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'registry' }] },
  };
  let lookups = 0;
  const plugin = new ServiceAccountAdmission({ serviceAccount: async (ns, n) => (lookups++, accounts[`${ns}/${n}`]) }, { defaultRetries: 3, retryDelayMs: () => 1 });
  const pod = (spec: KubeObject, annotations?: Record<string, string>) => ({ metadata: { name: 'p', annotations }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });

  it('defaults the service account and mounts the projected token volume in every container', async () => {
    const p = pod({ initContainers: [{ name: 'init', image: 'i' }] });
    await plugin.admit(attrs('pods', { object: p }));
    const spec = p.spec as Record<string, any>;
    assert.equal(spec.serviceAccountName, 'default');
    assert.equal(spec.serviceAccount, 'default');
    const name = spec.volumes[0].name as string;
    assert.match(name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(spec.volumes, [{ name, projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    } }]);
    const mount = { name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    assert.deepEqual(spec.containers[0].volumeMounts, [mount]);
    assert.deepEqual(spec.initContainers[0].volumeMounts, [mount]);
    await plugin.validate(attrs('pods', { object: p }));
  });

  it('no volume when the pod or its service account opts out, or when something is mounted there; image pull secrets from the service account', async () => {
    const optOut = pod({ automountServiceAccountToken: false });
    await plugin.admit(attrs('pods', { object: optOut }));
    assert.equal((optOut.spec as KubeObject).volumes, undefined);
    const quiet = pod({ serviceAccountName: 'quiet' });
    await plugin.admit(attrs('pods', { object: quiet }));
    assert.equal((quiet.spec as KubeObject).volumes, undefined);
    assert.deepEqual((quiet.spec as KubeObject).imagePullSecrets, [{ name: 'registry' }]);
    const podWins = pod({ serviceAccountName: 'quiet', automountServiceAccountToken: true, imagePullSecrets: [{ name: 'mine' }] });
    await plugin.admit(attrs('pods', { object: podWins }));
    assert.equal(((podWins.spec as KubeObject).volumes as unknown[]).length, 1);
    assert.deepEqual((podWins.spec as KubeObject).imagePullSecrets, [{ name: 'mine' }]);
    const own = pod({ containers: [{ name: 'c', volumeMounts: [{ name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }] });
    await plugin.admit(attrs('pods', { object: own }));
    assert.equal((own.spec as KubeObject).volumes, undefined);
  });

  it('a missing service account is 403 as Kubernetes words it; the default one is looked for again first', async () => {
    const missing = await refused(plugin.admit(attrs('pods', { object: pod({ serviceAccountName: 'ghost' }) })));
    assert.equal(missing.toJson(), '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"p\\" is forbidden: error looking up service account ns/ghost: serviceaccount \\"ghost\\" not found","reason":"Forbidden","details":{"name":"p","kind":"pods"},"code":403}\n');
    lookups = 0;
    const noDefault = await refused(plugin.admit(attrs('pods', { namespace: 'empty', object: { metadata: { generateName: 'web-' }, spec: { containers: [] } } })));
    assert.equal(noDefault.message, 'pods "web-" is forbidden: error looking up service account empty/default: serviceaccount "default" not found');
    assert.equal(lookups, 3);
  });

  it('a service account enforcing mountable secrets limits its pods to the secrets it lists', async () => {
    accounts['ns/strict'] = { metadata: { name: 'strict', annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'pull' }] };
    const check = async (spec: KubeObject) => {
      const p = pod({ serviceAccountName: 'strict', ...spec });
      await plugin.admit(attrs('pods', { object: p }));
      return plugin.validate(attrs('pods', { object: p }));
    };
    await check({ volumes: [{ name: 'v', secret: { secretName: 'ok' } }], imagePullSecrets: [{ name: 'pull' }] });
    assert.equal((await refused(check({ volumes: [{ name: 'v', secret: { secretName: 'other' } }] }))).message,
      'pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret');
    assert.equal((await refused(check({ containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] }] }))).message,
      'pods "p" is forbidden: container c with envVar E referencing secret.secretName="other" is not allowed because service account strict does not reference that secret');
    assert.equal((await refused(check({ imagePullSecrets: [{ name: 'pull' }, { name: 'x' }] }))).message,
      'pods "p" is forbidden: imagePullSecrets[1].name="x" is not allowed because service account strict does not reference that imagePullSecret');
  });

  it('mirror pods are left alone but may not reference service accounts, secrets or token projections', async () => {
    const mirror = pod({}, { 'kubernetes.io/config.mirror': 'x' });
    await plugin.admit(attrs('pods', { object: mirror }));
    assert.equal((mirror.spec as KubeObject).serviceAccountName, undefined);
    await plugin.validate(attrs('pods', { object: mirror }));
    assert.match((await refused(plugin.validate(attrs('pods', { object: pod({ serviceAccountName: 'x' }, { 'kubernetes.io/config.mirror': 'x' }) })))).message, /a mirror pod may not reference service accounts/);
    assert.match((await refused(plugin.validate(attrs('pods', { object: pod({ volumes: [{ name: 's', secret: { secretName: 's' } }] }, { 'kubernetes.io/config.mirror': 'x' }) })))).message, /a mirror pod may not reference secrets/);
  });

  it('other resources, subresources and updates are not concerned', async () => {
    await plugin.admit(attrs('pods', { operation: 'UPDATE', name: 'p', object: pod({ serviceAccountName: 'ghost' }), oldObject: {} }));
    await plugin.admit(attrs('pods', { subresource: 'status', operation: 'UPDATE', object: pod({ serviceAccountName: 'ghost' }), oldObject: {} }));
    await plugin.admit(attrs('configmaps', { object: {} }));
  });
});

describe('NodeRestriction', () => {
  const pods: Record<string, KubeObject> = { 'ns/mine': { metadata: { name: 'mine', uid: 'u1' }, spec: { nodeName: 'n1', serviceAccountName: 'sa' } }, 'ns/theirs': { metadata: { name: 'theirs' }, spec: { nodeName: 'n2' } } };
  const plugin = new NodeRestriction({ pod: async (ns, n) => pods[`${ns}/${n}`] });
  const node = (over: Partial<AdmissionAttributes>) => attrs('nodes', { namespace: '', user: NODE, ...over });

  it('does not concern other users', async () => {
    await plugin.admit(attrs('nodes', { namespace: '', name: 'n2', operation: 'UPDATE', object: {}, oldObject: {} }));
  });

  it('a node may change only its own Node, not its taints nor restricted labels', async () => {
    await plugin.admit(node({ operation: 'UPDATE', name: 'n1', object: { metadata: { labels: { 'kubernetes.io/hostname': 'n1', mine: 'x' } } }, oldObject: { metadata: {} } }));
    assert.equal((await refused(plugin.admit(node({ operation: 'UPDATE', name: 'n2', object: {}, oldObject: {} })))).message, 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    assert.equal((await refused(plugin.admit(node({ operation: 'UPDATE', name: 'n1', object: { spec: { taints: [] } }, oldObject: { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } } })))).message, 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints');
    const labels = await refused(plugin.admit(node({ operation: 'UPDATE', name: 'n1', object: { metadata: { labels: { 'node-restriction.kubernetes.io/x': 'y', 'foo.k8s.io/z': '1', 'node.kubernetes.io/ok': '1' } } }, oldObject: {} })));
    assert.equal(labels.message, 'nodes "n1" is forbidden: is not allowed to modify labels: foo.k8s.io/z, node-restriction.kubernetes.io/x');
    assert.match((await refused(plugin.admit(node({ operation: 'CREATE', object: { metadata: { name: 'n1', labels: { 'node-restriction.kubernetes.io/x': 'y' } } } })))).message, /node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io\/x/);
  });

  it('a node may update the status of, evict and delete only pods bound to it, and create only mirror pods', async () => {
    const pod = (name: string) => pods[`ns/${name}`];
    await plugin.admit(attrs('pods', { user: NODE, subresource: 'status', operation: 'UPDATE', name: 'mine', object: pod('mine'), oldObject: pod('mine') }));
    assert.match((await refused(plugin.admit(attrs('pods', { user: NODE, subresource: 'status', operation: 'UPDATE', name: 'theirs', object: pod('theirs'), oldObject: pod('theirs') })))).message, /node "n1" can only update pod status for pods with spec.nodeName set to itself/);
    assert.match((await refused(plugin.admit(attrs('pods', { user: NODE, operation: 'DELETE', name: 'theirs', oldObject: pod('theirs') })))).message, /can only delete pods with spec.nodeName set to itself/);
    await plugin.admit(attrs('pods', { user: NODE, operation: 'DELETE', name: 'mine', oldObject: pod('mine') }));
    assert.match((await refused(plugin.admit(attrs('pods', { user: NODE, operation: 'UPDATE', name: 'mine', object: pod('mine'), oldObject: pod('mine') })))).message, /unexpected operation "UPDATE", node "n1" can only create and delete mirror pods/);
    assert.match((await refused(plugin.admit(attrs('pods', { user: NODE, object: { metadata: { name: 'x' }, spec: { nodeName: 'n1' } } })))).message, /pod does not have "kubernetes.io\/config.mirror" annotation, node "n1" can only create mirror pods/);
    const mirror = { metadata: { name: 'static-n1', annotations: { 'kubernetes.io/config.mirror': 'h' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'x', controller: true }] }, spec: { nodeName: 'n1', containers: [] } };
    await plugin.admit(attrs('pods', { user: NODE, object: mirror }));
    assert.match((await refused(plugin.admit(attrs('pods', { user: NODE, object: { ...mirror, spec: { nodeName: 'n2' } } })))).message, /can only create pods with spec.nodeName set to itself/);
    assert.match((await refused(plugin.admit(attrs('pods', { user: NODE, subresource: 'eviction', operation: 'DELETE', name: 'theirs', oldObject: pod('theirs') })))).message, /can only evict pods with spec.nodeName set to itself/);
    assert.match((await refused(plugin.admit(attrs('pods', { user: NODE, subresource: 'binding', operation: 'UPDATE', name: 'mine', object: {}, oldObject: {} })))).message, /unexpected pod subresource "binding"/);
  });

  it('a node may touch only its own lease and request only tokens bound to its pods', async () => {
    await plugin.admit(attrs('coordination.k8s.io/leases', { user: NODE, namespace: 'kube-node-lease', name: 'n1', operation: 'UPDATE', object: {}, oldObject: {} }));
    assert.match((await refused(plugin.admit(attrs('coordination.k8s.io/leases', { user: NODE, namespace: 'kube-node-lease', name: 'n2', operation: 'UPDATE', object: {}, oldObject: {} })))).message, /can only access node lease with the same name as the requesting node/);
    const token = (ref?: KubeObject) => attrs('serviceaccounts', { user: NODE, subresource: 'token', name: 'sa', object: { spec: { boundObjectRef: ref } } });
    await plugin.admit(token({ kind: 'Pod', apiVersion: 'v1', name: 'mine' }));
    assert.match((await refused(plugin.admit(token()))).message, /node requested token not bound to a pod/);
    assert.match((await refused(plugin.admit(token({ kind: 'Pod', name: 'theirs' })))).message, /bound to a pod scheduled on a different node/);
  });
});

describe('DefaultTolerationSeconds', () => {
  const plugin = new DefaultTolerationSeconds();
  const toleration = (key: string) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });

  it('adds 300 s NoExecute tolerations for not-ready and unreachable nodes unless the pod tolerates them', () => {
    const plain = { metadata: { name: 'p' }, spec: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }] } };
    plugin.admit(attrs('pods', { object: plain }));
    assert.deepEqual(plain.spec.tolerations, [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }, toleration('node.kubernetes.io/not-ready'), toleration('node.kubernetes.io/unreachable')]);
    const own = { metadata: { name: 'p' }, spec: { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] } };
    plugin.admit(attrs('pods', { object: own }));
    assert.deepEqual(own.spec.tolerations, [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, toleration('node.kubernetes.io/not-ready')]);
    const all = { metadata: { name: 'p' }, spec: { tolerations: [{ operator: 'Exists' }] } };
    plugin.admit(attrs('pods', { object: all }));
    assert.deepEqual(all.spec.tolerations, [{ operator: 'Exists' }]);
  });
});
