// PodTemplate: pkg/registry/core/podtemplate/strategy.go, ValidatePodTemplate(Update) and the
// columns of `kubectl get podtemplates` (printPodTemplate). A template has no spec or status: its
// generation counts changes of `template`, which is validated as any workload's pod template.
import type { PodTemplate } from '../../../api/types.js';
import { semanticEqual } from '../../../machinery/validation/common.js';
import type { KindModule } from '../../kind-module.js';
import { metaOf } from '../../meta.js';
import { validatePodTemplateSpec } from '../../podspec/index.js';
import * as fmt from '../../printers/format.js';
import { column, nameColumn, type TablePrinter } from '../../printers/types.js';
import type { ResourceStrategy } from '../../strategy.js';
import { podWarnings } from '../pod-template-warnings.js';

export const podTemplateStrategy: ResourceStrategy<PodTemplate> = {
  hasStatus: false,
  tracksGeneration: false,
  prepareForCreate(template) {
    metaOf(template).generation = 1;
  },
  prepareForUpdate(template, old) {
    // Any change of the template bumps the generation.
    if (!semanticEqual(template.template, old.template)) {
      const generation = old.metadata?.generation;
      metaOf(template).generation = (typeof generation === 'number' ? generation : 0) + 1;
    }
  },
  validate: (template) => validatePodTemplateSpec(template.template, 'template'),
  validateUpdate: (template) => validatePodTemplateSpec(template.template, 'template'),
  warnings: (template) => podWarnings(fmt.obj(template.template), 'template'),
};

const podTemplatePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  cells(o) {
    const { names, images } = fmt.templateContainers(o.template);
    return [fmt.nameCell(o), names, images, fmt.formatMap(fmt.obj(fmt.obj(o.template).metadata).labels)];
  },
};

export const podTemplateModule: KindModule = { group: '', kind: 'PodTemplate', strategy: podTemplateStrategy, printer: podTemplatePrinter };
