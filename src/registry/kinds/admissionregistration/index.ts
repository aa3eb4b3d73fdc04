// The modules of the admissionregistration.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { validatingAdmissionPolicyBindingModule, validatingAdmissionPolicyModule } from './policies.js';
import { mutatingWebhookConfigurationModule, validatingWebhookConfigurationModule } from './webhook-configurations.js';

export const admissionregistrationModules: readonly KindModule[] = [
  mutatingWebhookConfigurationModule,
  validatingWebhookConfigurationModule,
  validatingAdmissionPolicyModule,
  validatingAdmissionPolicyBindingModule,
];
