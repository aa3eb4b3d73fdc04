// The PV protection controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { PVProtectionController } from './controller.js';

export const pvProtectionDescriptor: ControllerDescriptor = {
  name: 'pv-protection',
  aliases: ['persistentvolume-protection-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'pv-protection-controller',
  rules: [rule(CORE, 'persistentvolumes', 'get list update watch'), EVENTS_RULE],
  ctor: (ctx) => new PVProtectionController(ctx),
};
