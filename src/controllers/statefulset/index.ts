// The StatefulSet controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { StatefulSetController } from './controller.js';

export const statefulSetDescriptor: ControllerDescriptor = {
  name: 'statefulset',
  aliases: ['statefulset-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentStatefulsetSyncs',
  serviceAccount: 'statefulset-controller',
  rules: [
    rule(CORE, 'pods', 'list watch'),
    rule(['apps'], 'statefulsets', READ),
    rule(['apps'], 'statefulsets/status', 'update'),
    rule(['apps'], 'statefulsets/finalizers', 'update'),
    rule(CORE, 'pods', 'get create delete update patch'),
    rule(['apps'], 'controllerrevisions', 'get create delete update patch list watch'),
    rule(CORE, 'persistentvolumeclaims', 'get create'),
    EVENTS_RULE,
    // StatefulSetAutoDeletePVC (GA): the retention policy's owner references
    rule(CORE, 'persistentvolumeclaims', 'update delete'),
  ],
  ctor: (ctx) => new StatefulSetController(ctx),
};
