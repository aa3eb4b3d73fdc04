// The persistent volume controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, READ, rule } from '../common/rbac.js';
import { PersistentVolumeController } from './controller.js';

export const persistentVolumeBinderDescriptor: ControllerDescriptor = {
  name: 'persistentvolume-binder',
  aliases: ['persistentvolume-binder-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'persistent-volume-binder',
  rules: [
    rule(CORE, 'persistentvolumes', 'create delete get list update watch'),
    rule(CORE, 'persistentvolumes/status', 'update'),
    rule(CORE, 'persistentvolumeclaims', 'get list update watch'),
    rule(CORE, 'persistentvolumeclaims/status', 'update'),
    rule(CORE, 'pods', 'create delete get list watch'),
    rule(['storage.k8s.io'], 'storageclasses', READ),
    rule(CORE, 'endpoints', 'create delete get update'),
    rule(CORE, 'services', 'create delete get'),
    rule(CORE, 'secrets', 'get'),
    rule(CORE, 'nodes', 'get list'),
    rule(CORE, 'events', 'watch'),
    EVENTS_RULE,
  ],
  ctor: (ctx) => new PersistentVolumeController(ctx),
};
