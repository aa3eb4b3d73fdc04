// The controllers of seed 001 and of kube-controller-manager that kubelite does not implement yet:
// known by name (so `--controllers` accepts them, and the daemon logs them "not available"), with
// the roles Kubernetes' bootstrap policy keeps for them. A controller moves from here to its own
// folder's descriptor when it is written.
import type { ControllerDescriptor } from '../controllers/index.js';
import { CORE, EVENTS_RULE, READ, rule } from '../controllers/common/rbac.js';

export type NotImplementedController = Omit<ControllerDescriptor, 'ctor'>;

const on = (name: string, alias?: string, workersOption?: string): NotImplementedController => ({ name, aliases: alias === undefined ? [] : [alias], enabledByDefault: true, workersOption });

// prettier-ignore
export const NOT_IMPLEMENTED_CONTROLLERS: readonly NotImplementedController[] = [
  on('attachdetach', 'persistentvolume-attach-detach-controller'),
  { name: 'bootstrapsigner', aliases: ['bootstrap-signer-controller'], enabledByDefault: false },
  on('cloud-node-lifecycle', 'cloud-node-lifecycle-controller'),
  on('csrapproving', 'certificatesigningrequest-approving-controller'),
  on('csrcleaner', 'certificatesigningrequest-cleaner-controller'),
  on('csrsigning', 'certificatesigningrequest-signing-controller'),
  on('disruption', 'disruption-controller'),
  on('ephemeral-volume', 'ephemeral-volume-controller', 'concurrentEphemeralvolumeSyncs'),
  on('horizontalpodautoscaling', 'horizontal-pod-autoscaler-controller', 'concurrentHorizontalPodAutoscalerSyncs'),
  on('legacy-serviceaccount-token-cleaner', 'legacy-serviceaccount-token-cleaner-controller'),
  on('node'),
  on('nodeipam', 'node-ipam-controller'),
  {
    // Its role is also the one `kubelite up` gives the simulated nodes' lifecycle (src/up/credentials.ts).
    ...on('nodelifecycle', 'node-lifecycle-controller'),
    serviceAccount: 'node-controller',
    rules: [
      rule(CORE, 'nodes', 'delete get list patch update watch'),
      rule(CORE, 'nodes/status', 'patch update'),
      rule(CORE, 'pods/status', 'patch update'),
      rule(CORE, 'pods', 'delete get list watch'),
      EVENTS_RULE,
    ],
  },
  on('persistentvolume-binder', 'persistentvolume-binder-controller'),
  on('persistentvolume-expander', 'persistentvolume-expander-controller'),
  on('route', 'node-route-controller'),
  on('service', 'service-lb-controller', 'concurrentServiceSyncs'),
  on('statefulset', 'statefulset-controller', 'concurrentStatefulsetSyncs'),
  on('taint-eviction', 'taint-eviction-controller'),
  { name: 'tokencleaner', aliases: ['token-cleaner-controller'], enabledByDefault: false },
];
