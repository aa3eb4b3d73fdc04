// The modules of the storage.k8s.io kinds.
import type { KindModule } from '../../kind-module.js';
import { csiDriverModule } from './csidriver.js';
import { csiNodeModule } from './csinode.js';
import { csiStorageCapacityModule } from './csistoragecapacity.js';
import { storageClassModule } from './storageclass.js';
import { volumeAttachmentModule } from './volumeattachment.js';

export const storageModules: readonly KindModule[] = [csiDriverModule, csiNodeModule, csiStorageCapacityModule, storageClassModule, volumeAttachmentModule];
