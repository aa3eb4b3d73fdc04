// Conversion of CronJob between batch/v1 (the hub) and batch/v1beta1 (same fields) and
// batch/v2alpha1 (no spec.timeZone, no status.lastSuccessfulTime: lost when read in v2alpha1, as
// in Kubernetes, where that version predates both fields).
import { conversion } from '../conversion/hub-and-spoke.js';
import { isObj } from '../go-json.js';

const HUB = 'batch/v1';

export const batchV1beta1Conversion = { cronJob: conversion(HUB, 'batch/v1beta1') } as const;

export const batchV2alpha1Conversion = {
  cronJob: conversion(HUB, 'batch/v2alpha1', {
    fromHub(obj) {
      if (isObj(obj.spec)) delete obj.spec.timeZone;
      if (isObj(obj.status)) delete obj.status.lastSuccessfulTime;
    },
  }),
} as const;
