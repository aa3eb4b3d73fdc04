// Conversion of the apps kinds between apps/v1 (the hub) and apps/v1beta2, apps/v1beta1 (and the
// steps extensions/v1beta1 shares, see ../extensions/conversion.ts). apps/v1 has no field for the
// beta versions' Deployment spec.rollbackTo and DaemonSet spec.templateGeneration; like
// Kubernetes, it keeps them in annotations:
// - `deprecated.deployment.rollback.to`: the revision of spec.rollbackTo (present iff rollbackTo is);
// - `deprecated.daemonset.template.generation`: spec.templateGeneration.
// apps/v1beta2 has the same fields as apps/v1, so it keeps those annotations as they are.
import { conversion, type Conversion, type ConversionSteps } from '../conversion/hub-and-spoke.js';
import { child, isNil, isObj, parseInt64, removeAnnotation, setAnnotation, type Obj } from '../go-json.js';
import { annotationOf } from '../meta/object.js';

export const HUB = 'apps/v1';
export const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';
export const DEPRECATED_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** Deployment spec.rollbackTo (apps/v1beta1, extensions/v1beta1) ↔ the rollback annotation. */
export const rollbackToSteps: ConversionSteps = {
  toHub(obj) {
    const spec = isObj(obj.spec) ? obj.spec : undefined;
    const rollbackTo = spec?.rollbackTo;
    if (spec) delete spec.rollbackTo;
    if (isObj(rollbackTo)) setAnnotation(obj, DEPRECATED_ROLLBACK_TO, String(rollbackTo.revision ?? 0));
    else removeAnnotation(obj, DEPRECATED_ROLLBACK_TO);
  },
  fromHub(obj) {
    const revision = annotationOf(obj, DEPRECATED_ROLLBACK_TO);
    if (revision === undefined || revision === '') return;
    const value = parseInt64(revision, `annotation[${DEPRECATED_ROLLBACK_TO}]`);
    child(obj, 'spec').rollbackTo = value === 0 ? {} : { revision: value };
    removeAnnotation(obj, DEPRECATED_ROLLBACK_TO);
  },
};

/** DaemonSet spec.templateGeneration (extensions/v1beta1) ↔ the template generation annotation. */
export const templateGenerationSteps: ConversionSteps = {
  toHub(obj) {
    const spec = isObj(obj.spec) ? obj.spec : undefined;
    const generation = spec?.templateGeneration;
    if (spec) delete spec.templateGeneration;
    // Kubernetes' internal form always has a generation (0 when unset) and always writes it.
    setAnnotation(obj, DEPRECATED_TEMPLATE_GENERATION, String(isNil(generation) ? 0 : generation));
  },
  fromHub(obj) {
    const value = annotationOf(obj, DEPRECATED_TEMPLATE_GENERATION);
    if (value === undefined) return;
    const generation = parseInt64(value, `annotation[${DEPRECATED_TEMPLATE_GENERATION}]`);
    if (generation !== 0) child(obj, 'spec').templateGeneration = generation;
    removeAnnotation(obj, DEPRECATED_TEMPLATE_GENERATION);
  },
};

/** apps/v1beta1 StatefulSet status.observedGeneration is a pointer that its conversion always sets. */
const observedGenerationPointerSteps: ConversionSteps = {
  toHub(obj) {
    const status = obj.status;
    if (isObj(status) && isNil(status.observedGeneration)) delete status.observedGeneration;
  },
  fromHub(obj) {
    const status: Obj = child(obj, 'status');
    if (isNil(status.observedGeneration)) status.observedGeneration = 0;
  },
};

const same = (version: string): Conversion => conversion(HUB, version);

export const appsV1beta2Conversion = {
  deployment: same('apps/v1beta2'),
  replicaSet: same('apps/v1beta2'),
  daemonSet: same('apps/v1beta2'),
  statefulSet: same('apps/v1beta2'),
  controllerRevision: same('apps/v1beta2'),
} as const;

export const appsV1beta1Conversion = {
  deployment: conversion(HUB, 'apps/v1beta1', rollbackToSteps),
  statefulSet: conversion(HUB, 'apps/v1beta1', observedGenerationPointerSteps),
  controllerRevision: same('apps/v1beta1'),
} as const;
