// The attach/detach controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { AttachDetachController } from './controller.js';

const STORAGE = ['storage.k8s.io'];

export const attachDetachDescriptor: ControllerDescriptor = {
  name: 'attachdetach',
  aliases: ['persistentvolume-attach-detach-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'attachdetach-controller',
  rules: [
    rule(CORE, 'persistentvolumes persistentvolumeclaims', 'list watch'),
    rule(CORE, 'nodes', 'get list watch'),
    rule(CORE, 'nodes/status', 'patch update'),
    rule(CORE, 'pods', 'list watch'),
    EVENTS_RULE,
    rule(STORAGE, 'volumeattachments', 'get create delete list watch'),
    rule(STORAGE, 'csidrivers', 'get watch list'),
    rule(STORAGE, 'csinodes', 'get watch list'),
  ],
  ctor: (ctx) => new AttachDetachController(ctx),
};
