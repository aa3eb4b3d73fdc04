export { ReplicaSetController, newReplicaSetController, newReplicationControllerController, slowStartBatch, BURST_REPLICAS } from './replicaset.js';
