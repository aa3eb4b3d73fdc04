// The legacy service account token cleaner's descriptor (see ../README.md).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { CORE, rule } from '../common/rbac.js';
import { LegacyTokenCleaner, TRACKING_CONFIG_MAP } from './controller.js';

export const legacyTokenCleanerDescriptor: ControllerDescriptor = {
  name: 'legacy-serviceaccount-token-cleaner',
  aliases: ['legacy-serviceaccount-token-cleaner-controller'],
  enabledByDefault: true,
  workers: 1,
  serviceAccount: 'legacy-service-account-token-cleaner',
  rules: [{ ...rule(CORE, 'configmaps', 'get'), resourceNames: [TRACKING_CONFIG_MAP] }, rule(CORE, 'secrets', 'patch delete')],
  ctor: (ctx) => new LegacyTokenCleaner(ctx),
};
