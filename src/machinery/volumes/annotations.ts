// The annotations through which the PV controller and the scheduler's VolumeBinding hand volume
// binding to each other (pkg/controller/volume/persistentvolume/util).

/** On a claim whose class binds on first consumer: the node the scheduler chose; provisioning may start. */
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** On a claim: binding finished (both objects point at each other). */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
/** On a volume or claim: bound by a controller (or the scheduler), not by its author. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
