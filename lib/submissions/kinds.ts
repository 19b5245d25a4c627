import type { SubmissionKind } from "@/lib/db";

/**
 * The Claim.use of each kind of submission: a prescription sent for verification is a
 * predetermination (guide 7.11, docs/decisions/116); the others carry their kind as their use.
 */
export function claimUseOf(kind: SubmissionKind): "claim" | "preauthorization" | "predetermination" {
  return kind === "prescription" ? "predetermination" : kind;
}

/** The kind of a stored Claim's use (what a reader of `Claim.use` files it under). */
export function kindOfUse(use: unknown): SubmissionKind | undefined {
  return use === "predetermination" ? "prescription" : use === "claim" || use === "preauthorization" ? use : undefined;
}
