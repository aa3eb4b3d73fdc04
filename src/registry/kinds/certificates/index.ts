// The modules of the certificates.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { certificateSigningRequestModule } from './csr/index.js';

export const certificatesModules: readonly KindModule[] = [certificateSigningRequestModule];
