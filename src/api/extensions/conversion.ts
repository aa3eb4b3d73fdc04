// Conversion of extensions/v1beta1's workload kinds to and from apps/v1 (their hub): Deployment
// spec.rollbackTo and DaemonSet spec.templateGeneration live in apps/v1 annotations (see
// ../apps/conversion.ts); ReplicaSet differs only in apiVersion.
import { HUB, rollbackToSteps, templateGenerationSteps } from '../apps/conversion.js';
import { conversion } from '../conversion/hub-and-spoke.js';

const V = 'extensions/v1beta1';

export const extensionsV1beta1Conversion = {
  deployment: conversion(HUB, V, rollbackToSteps),
  daemonSet: conversion(HUB, V, templateGenerationSteps),
  replicaSet: conversion(HUB, V),
} as const;
