// The service account token controller's descriptor (see ../README.md). It runs with the daemon's
// own credentials, as in Kubernetes (it is what makes the other controllers' tokens).
import type { ControllerDescriptor } from '../common/descriptor.js';
import { newTokensController } from './controller.js';

export const serviceAccountTokenDescriptor: ControllerDescriptor = {
  name: 'serviceaccount-token',
  aliases: ['serviceaccount-token-controller'],
  enabledByDefault: true,
  workersOption: 'concurrentServiceaccountTokenSyncs',
  ctor: newTokensController,
};
