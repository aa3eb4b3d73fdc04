// The descriptor of the EndpointSlice controller (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { newEndpointSliceController } from './controller.js';

export const endpointSliceDescriptor: ControllerDescriptor = {
  name: 'endpointslice',
  aliases: ['endpointslice-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentServiceEndpointSyncs',
  serviceAccount: 'endpointslice-controller',
  rules: [
    rule(CORE, 'nodes pods services', READ),
    rule(CORE, 'services/finalizers', 'update'),
    rule(['discovery.k8s.io'], 'endpointslices', 'create delete get list update'),
    EVENTS_RULE,
  ],
  ctor: newEndpointSliceController,
};
