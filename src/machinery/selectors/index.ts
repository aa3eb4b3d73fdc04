// Label and field selectors for lists and watches (`labelSelector`, `fieldSelector`) and for
// controllers (metav1.LabelSelector objects).

export { SelectorError } from './errors.js';
export {
  LabelSelector,
  compileLabelSelector,
  labelSelectorAsSelector,
  newRequirement,
  parseLabelSelector,
  requirementString,
  type LabelOperator,
  type LabelRequirement,
  type LabelSelectorObject,
  type LabelSelectorRequirementObject,
  type Labels,
} from './labels.js';
export {
  FieldSelector,
  escapeFieldValue,
  parseFieldSelector,
  unescapeFieldValue,
  type FieldOperator,
  type FieldRequirement,
  type FieldSet,
  type FieldTransform,
} from './fields.js';
export {
  META_FIELD_LABELS,
  convertFieldLabel,
  defaultFieldLabelConversion,
  fieldAt,
  fieldLabelErrors,
  fieldLabelTransform,
  parseFieldSelectorWith,
  selectableFieldSet,
  valueAt,
  type FieldExtractor,
  type FieldLabelConversion,
} from './selectable-fields.js';
export { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './validation.js';
