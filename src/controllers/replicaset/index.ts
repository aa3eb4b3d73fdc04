// The descriptors of the replicaset controller and of the replication manager, the same
// controller over ReplicationControllers (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, PODS_WRITE_RULE, rule } from '../common/rbac.js';
import { newReplicaSetController, newReplicationControllerController } from './controller.js';

export const replicaSetDescriptor: ControllerDescriptor = {
  name: 'replicaset',
  aliases: ['replicaset-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentReplicasetSyncs',
  serviceAccount: 'replicaset-controller',
  rules: [
    rule(['apps', 'extensions'], 'replicasets', 'get list update watch'),
    rule(['apps', 'extensions'], 'replicasets/status', 'update'),
    rule(['apps', 'extensions'], 'replicasets/finalizers', 'update'),
    PODS_WRITE_RULE,
    EVENTS_RULE,
  ],
  ctor: newReplicaSetController,
};

export const replicationControllerDescriptor: ControllerDescriptor = {
  name: 'replicationcontroller',
  aliases: ['replicationcontroller-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentRcSyncs',
  serviceAccount: 'replication-controller',
  rules: [
    rule(CORE, 'replicationcontrollers', 'get list update watch'),
    rule(CORE, 'replicationcontrollers/status', 'update'),
    rule(CORE, 'replicationcontrollers/finalizers', 'update'),
    PODS_WRITE_RULE,
    EVENTS_RULE,
  ],
  ctor: newReplicationControllerController,
};
