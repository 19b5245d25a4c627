"use client";

import { useEffect, useState } from "react";
import { authorizationRequirementsAction } from "@/lib/eligibility/browser";

/**
 * The services the payer said need a prior authorization for the chosen coverage (its newest
 * "auth-requirements" eligibility answer on file; decision 125): the authorization and claim forms
 * mark those lines. Empty until a patient and coverage are chosen, or when no such answer is on file.
 */
const NONE: ReadonlySet<string> = new Set();

export function useAuthorizationRequirements(patientId: string | undefined, coverageId: string | undefined): ReadonlySet<string> {
  const key = patientId && coverageId ? `${patientId}|${coverageId}` : "";
  // The answer is kept with the patient and coverage it is for: another choice shows nothing until its own arrives.
  const [answer, setAnswer] = useState<{ key: string; codes: ReadonlySet<string> }>({ key: "", codes: NONE });
  useEffect(() => {
    if (!key) return;
    let current = true;
    const [patient = "", coverage = ""] = key.split("|");
    authorizationRequirementsAction({ patientId: patient, coverageId: coverage })
      .then((result) => {
        if (current) setAnswer({ key, codes: new Set(result.ok ? result.codes : []) });
      })
      // A mark is a help, not a gate: without an answer the lines are simply not marked.
      .catch(() => {
        if (current) setAnswer({ key, codes: NONE });
      });
    return () => {
      current = false;
    };
  }, [key]);
  return answer.key === key ? answer.codes : NONE;
}
