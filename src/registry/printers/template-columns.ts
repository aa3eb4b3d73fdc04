// The -o wide columns of a kind with a pod template (kubectl's workload printers): the template's
// containers, their images, and the pod selector.
import { formatLabelSelector, templateContainers } from './format.js';
import { column, type ColumnDefinition } from './types.js';

/** Containers, Images and Selector (described by `selectorDescription`), wide only. */
export const wideTemplateColumns = (selectorDescription: string): ColumnDefinition[] => [
  column('Containers', 'string', 'Names of each container in the template.', 1),
  column('Images', 'string', 'Images referenced by each container in the template.', 1),
  column('Selector', 'string', selectorDescription, 1),
];

/** The cells of the wide template columns of a spec with `template` and `selector`. */
export function wideCells(spec: Record<string, unknown>): string[] {
  const { names, images } = templateContainers(spec.template);
  return [names, images, formatLabelSelector(spec.selector)];
}
