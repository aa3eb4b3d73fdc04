export { ReplicaSetController, newReplicaSetController, newReplicationControllerController, BURST_REPLICAS } from './controller.js';
export { slowStartBatch } from './slow-start.js';
