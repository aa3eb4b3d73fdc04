// The API Priority and Fairness configuration kube-apiserver creates at start
// (k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap, Kubernetes 1.33): the mandatory objects
// (exempt and catch-all, whose specs validation pins) and the suggested ones. Every object
// carries `apf.kubernetes.io/autoupdate-spec: "true"`, as the config-producer writes them.
import type { FlowSchema, PriorityLevelConfiguration } from '../../../api/types.js';

export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';

const G = 'flowcontrol.apiserver.k8s.io/v1';
const ALL = '*';

type Subject = { kind: string; user?: { name: string }; group?: { name: string }; serviceAccount?: { namespace: string; name: string } };
type ResourceRule = { verbs: string[]; apiGroups: string[]; resources: string[]; clusterScope?: boolean; namespaces: string[] };
type NonResourceRule = { verbs: string[]; nonResourceURLs: string[] };
interface Rules { subjects: Subject[]; resourceRules?: ResourceRule[]; nonResourceRules?: NonResourceRule[] }

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } }));

function resourceRule(verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): ResourceRule {
  return clusterScope ? { verbs, apiGroups, resources, clusterScope, namespaces } : { verbs, apiGroups, resources, namespaces };
}

/** Everything, resource and non-resource, for the given subjects. */
const allOf = (subjects: Subject[]): Rules => ({
  subjects,
  resourceRules: [resourceRule([ALL], [ALL], [ALL], [ALL], true)],
  nonResourceRules: [{ verbs: [ALL], nonResourceURLs: [ALL] }],
});

function flowSchema(name: string, priorityLevel: string, matchingPrecedence: number, distinguisher: string, rules: Rules): FlowSchema {
  return {
    apiVersion: G,
    kind: 'FlowSchema',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher === '' ? {} : { distinguisherMethod: { type: distinguisher } }),
      rules: [rules],
    },
  };
}

/** A Limited level with a queue (Kubernetes' suggested levels all queue; lendablePercent as 1.33 sets it). */
function limited(name: string, shares: number, lendablePercent: number, queuing: { queues: number; handSize: number; queueLengthLimit: number } | undefined): PriorityLevelConfiguration {
  return {
    apiVersion: G,
    kind: 'PriorityLevelConfiguration',
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: {
      type: 'Limited',
      limited: { nominalConcurrencyShares: shares, limitResponse: queuing ? { type: 'Queue', queuing } : { type: 'Reject' }, lendablePercent },
    },
  };
}

const q = (queues: number, handSize: number, queueLengthLimit: number) => ({ queues, handSize, queueLengthLimit });

export const mandatoryPriorityLevelConfigurations: readonly PriorityLevelConfiguration[] = [
  {
    apiVersion: G,
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'exempt', annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  },
  limited('catch-all', 5, 0, undefined),
];

export const mandatoryFlowSchemas: readonly FlowSchema[] = [
  flowSchema('exempt', 'exempt', 1, '', allOf(groups('system:masters'))),
  flowSchema('catch-all', 'catch-all', 10000, 'ByUser', allOf(groups('system:unauthenticated', 'system:authenticated'))),
];

export const suggestedPriorityLevelConfigurations: readonly PriorityLevelConfiguration[] = [
  limited('system', 30, 33, q(64, 6, 50)),
  limited('node-high', 40, 25, q(64, 6, 50)),
  limited('leader-election', 10, 0, q(16, 4, 50)),
  limited('workload-high', 40, 50, q(128, 6, 50)),
  limited('workload-low', 100, 90, q(128, 6, 50)),
  limited('global-default', 20, 50, q(128, 6, 50)),
];

const getCreateUpdate = ['get', 'create', 'update'];

export const suggestedFlowSchemas: readonly FlowSchema[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', allOf(groups('system:nodes'))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups('system:nodes'),
    resourceRules: [resourceRule([ALL], [''], ['nodes', 'nodes/status'], [ALL], true), resourceRule([ALL], ['coordination.k8s.io'], ['leases'], [ALL], false)],
  }),
  flowSchema('probes', 'exempt', 2, '', {
    subjects: groups('system:unauthenticated', 'system:authenticated'),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemServiceAccounts(ALL)],
    resourceRules: [resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], [ALL], false)],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemServiceAccounts(ALL),
    resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints', 'configmaps'], [ALL], false), resourceRule(getCreateUpdate, ['coordination.k8s.io'], ['leases'], [ALL], false)],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [...users('system:kube-controller-manager'), ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
    resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints'], [ALL], false)],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', allOf(users('system:kube-controller-manager'))),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', allOf(users('system:kube-scheduler'))),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', allOf(kubeSystemServiceAccounts(ALL))),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', allOf(groups('system:serviceaccounts'))),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', allOf(groups('system:unauthenticated', 'system:authenticated'))),
];

export const mandatoryFlowSchemaSpec = (name: string): FlowSchema['spec'] | undefined => mandatoryFlowSchemas.find((f) => f.metadata?.name === name)?.spec;
export const mandatoryPriorityLevelSpec = (name: string): PriorityLevelConfiguration['spec'] | undefined =>
  mandatoryPriorityLevelConfigurations.find((p) => p.metadata?.name === name)?.spec;
