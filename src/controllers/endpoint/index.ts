// The descriptor of the endpoints controller (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { newEndpointsController } from './controller.js';

export const endpointDescriptor: ControllerDescriptor = {
  name: 'endpoint',
  aliases: ['endpoints-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentEndpointSyncs',
  serviceAccount: 'endpoint-controller',
  rules: [rule(CORE, 'pods services', READ), rule(CORE, 'endpoints', 'create delete get list update watch'), rule(CORE, 'endpoints/restricted', 'create'), EVENTS_RULE],
  ctor: newEndpointsController,
};
