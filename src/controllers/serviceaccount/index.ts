// The service account controller's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, EVENTS_RULE, rule } from '../common/rbac.js';
import { ServiceAccountsController } from './controller.js';

export const serviceAccountDescriptor: ControllerDescriptor = {
  name: 'serviceaccount',
  aliases: ['serviceaccount-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'service-account-controller',
  rules: [rule(CORE, 'serviceaccounts', 'create'), EVENTS_RULE],
  ctor: (ctx) => new ServiceAccountsController(ctx),
};
