// The descriptor of the EndpointSlice mirroring controller (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { newEndpointSliceMirroringController } from './controller.js';

export const endpointSliceMirroringDescriptor: ControllerDescriptor = {
  name: 'endpointslicemirroring',
  aliases: ['endpointslice-mirroring-controller'],
  enabledByDefault: true,
  workersOption: 'mirroringConcurrentServiceEndpointSyncs',
  serviceAccount: 'endpointslicemirroring-controller',
  rules: [
    rule(CORE, 'services endpoints', READ),
    rule(CORE, 'services/finalizers', 'update'),
    rule(CORE, 'endpoints/finalizers', 'update'),
    rule(['discovery.k8s.io'], 'endpointslices', 'create delete get list update'),
    EVENTS_RULE,
  ],
  ctor: newEndpointSliceMirroringController,
};
