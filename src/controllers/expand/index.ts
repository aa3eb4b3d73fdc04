// The volume expand controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { ExpandController } from './controller.js';

export const persistentVolumeExpanderDescriptor: ControllerDescriptor = {
  name: 'persistentvolume-expander',
  aliases: ['persistentvolume-expander-controller'],
  enabledByDefault: true,
  workers: 10,
  serviceAccount: 'expand-controller',
  rules: [
    rule(CORE, 'persistentvolumes', 'get list patch update watch'),
    rule(CORE, 'persistentvolumeclaims/status', 'patch update'),
    rule(CORE, 'persistentvolumeclaims', 'get list watch'),
    rule(['storage.k8s.io'], 'storageclasses', 'get list watch'),
    rule(CORE, 'endpoints services', 'get'),
    rule(CORE, 'secrets', 'get'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new ExpandController(ctx),
};
