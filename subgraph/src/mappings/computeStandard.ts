// ComputeStandard: versioned reference systems per workload class and the grade thresholds. A threshold change
// re-grades every provider (grades are derived from stored rates under the current thresholds, as on chain).
import { Bytes } from "@graphprotocol/graph-ts";
import {
  GradeThresholdsSet,
  ReferencePublished,
} from "../../generated/ComputeStandard/ComputeStandard";
import { GradeThresholdsChange, Provider, ReferenceSystem, WorkloadClass } from "../../generated/schema";
import { eventId, stamp } from "../lib/common";
import { getThresholds } from "../lib/compute";
import { initReferenceSystem, initWorkloadClass } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

export function handleReferencePublished(event: ReferencePublished): void {
  const a = event.params;
  const classId = Bytes.fromI32(a.workloadClass);
  let w = WorkloadClass.load(classId);
  if (w == null) {
    w = initWorkloadClass(classId);
    w.workloadClass = a.workloadClass;
  }
  if (w.latestVersion > 0) {
    const prev = ReferenceSystem.load(Bytes.fromI32((a.workloadClass << 16) | w.latestVersion));
    if (prev != null) {
      prev.superseded = true;
      prev.save();
    }
  }
  w.name = a.name;
  w.latestVersion = a.version;
  w.save();

  const r = initReferenceSystem(Bytes.fromI32((a.workloadClass << 16) | a.version));
  r.workload = classId;
  r.workloadClass = a.workloadClass;
  r.version = a.version;
  r.refPflopsWad = a.refPflopsWad;
  r.weightsWad = a.weightsWad;
  r.name = a.name;
  r.specHash = a.specHash;
  r.publishedAt = event.block.timestamp;
  r.blockNumber = event.block.number;
  r.transactionHash = event.transaction.hash;
  r.save();
}

export function handleGradeThresholdsSet(event: GradeThresholdsSet): void {
  const x = event.params.thresholds;
  const t = getThresholds();
  t.perfAWad = x.perfAWad;
  t.perfBWad = x.perfBWad;
  t.perfCWad = x.perfCWad;
  t.uptime1Wad = x.uptime1Wad;
  t.uptime2Wad = x.uptime2Wad;
  t.uptime3Wad = x.uptime3Wad;
  t.energyXWad = x.energyXWad;
  t.energyYWad = x.energyYWad;
  t.updatedAt = event.block.timestamp;
  t.save();

  const e = new GradeThresholdsChange(eventId(event));
  e.perfAWad = x.perfAWad;
  e.perfBWad = x.perfBWad;
  e.perfCWad = x.perfCWad;
  e.uptime1Wad = x.uptime1Wad;
  e.uptime2Wad = x.uptime2Wad;
  e.uptime3Wad = x.uptime3Wad;
  e.energyXWad = x.energyXWad;
  e.energyYWad = x.energyYWad;
  stamp(e, event);
  e.save();

  // No provider is re-graded here: each keeps the grades of its last attestation/heartbeat (see the schema).
}
