// structured-merge-diff's fieldpath for kubelite: path elements, field sets, FieldsV1.
export * from './element.js';
export * from './set.js';
export * from './fieldsv1.js';
