// The ephemeral volume controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { EphemeralVolumeController } from './controller.js';

export const ephemeralVolumeDescriptor: ControllerDescriptor = {
  name: 'ephemeral-volume',
  aliases: ['ephemeral-volume-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentEphemeralvolumeSyncs',
  serviceAccount: 'ephemeral-volume-controller',
  rules: [rule(CORE, 'pods', READ), rule(CORE, 'pods/finalizers', 'update'), rule(CORE, 'persistentvolumeclaims', 'get list watch create'), EVENTS_RULE],
  ctor: (ctx) => new EphemeralVolumeController(ctx),
};
