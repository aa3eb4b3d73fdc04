// Pod: its strategy (./strategy.ts, with the pod spec rules of registry/podspec), its columns
// (./printer.ts), its selectable fields and field labels, and its subresources
// (./subresources.ts).
import { fieldAt, fieldLabelErrors, META_FIELD_LABELS, valueAt } from '../../../../machinery/selectors/index.js';
import type { KindModule } from '../../../kind-module.js';
import { podPrinter } from './printer.js';
import { podStrategy } from './strategy.js';
import { podBinding, podEphemeralContainers, podEviction, podNodeConnection, podResize } from './subresources.js';

const podIP = fieldAt.string('status', 'podIP');
const STATUS_POD_IPS = ['status', 'podIPs'];
const IP = ['ip'];

export const podModule: KindModule = {
  group: '',
  kind: 'Pod',
  strategy: podStrategy,
  returnsDeletedObject: true,
  printer: podPrinter,
  selectableFields: {
    'spec.nodeName': fieldAt.string('spec', 'nodeName'),
    'spec.restartPolicy': fieldAt.string('spec', 'restartPolicy'),
    'spec.schedulerName': fieldAt.string('spec', 'schedulerName'),
    'spec.serviceAccountName': fieldAt.string('spec', 'serviceAccountName'),
    'spec.hostNetwork': fieldAt.bool('spec', 'hostNetwork'),
    'status.phase': fieldAt.string('status', 'phase'),
    // The first of status.podIPs (which the v1 API keeps in step with status.podIP).
    'status.podIP': (o) => {
      const ips = valueAt(o, STATUS_POD_IPS);
      const first = Array.isArray(ips) ? valueAt(ips[0], IP) : undefined;
      if (typeof first === 'string') return first;
      return podIP(o);
    },
    'status.nominatedNodeName': fieldAt.string('status', 'nominatedNodeName'),
  },
  fieldLabels: () => ({
    labels: [
      ...META_FIELD_LABELS,
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.podIPs',
      'status.nominatedNodeName',
    ],
    // Old v1 clients send spec.host.
    aliases: { 'spec.host': 'spec.nodeName' },
    error: fieldLabelErrors.notSupported,
  }),
  subresources: {
    binding: podBinding,
    eviction: podEviction,
    ephemeralcontainers: podEphemeralContainers,
    resize: podResize,
    log: podNodeConnection,
    exec: podNodeConnection,
    attach: podNodeConnection,
    portforward: podNodeConnection,
    proxy: podNodeConnection,
  },
};
