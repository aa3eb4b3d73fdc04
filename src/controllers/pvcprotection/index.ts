// The PVC protection controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { PVCProtectionController } from './controller.js';

export const pvcProtectionDescriptor: ControllerDescriptor = {
  name: 'pvc-protection',
  aliases: ['persistentvolumeclaim-protection-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'pvc-protection-controller',
  rules: [rule(CORE, 'persistentvolumeclaims', 'get list update watch'), rule(CORE, 'pods', 'get list watch'), EVENTS_RULE],
  ctor: (ctx) => new PVCProtectionController(ctx),
};
