/**
 * The composition's owner reads for test processes (vitest's setup file; the pipeline's child
 * processes and the scripts that queue or send in their own process import it): the wiring boot
 * does (lib/server/owner-reads.ts), so a test's messaging port, patient correction or scrubber
 * reads through lib/submissions, lib/visits and lib/deadlines as the portal does. It imports the
 * files themselves, not the modules' entries, to keep every test file's start light.
 */
import { providePlannedUnder, provideSentUnder } from "@/lib/patients/sent-under";
import { filingWindowDays } from "@/lib/deadlines/filing-window";
import { provideSentClaims } from "@/lib/platform/sent-claims";
import { provideFilingWindowRead } from "@/lib/scrubber/reads";
import { hasSubmissionsFor } from "@/lib/submissions/reads/patients";
import { sentClaimReads } from "@/lib/submissions/reads/sent-claims";
import { hasVisitsFor } from "@/lib/visits/reads";

provideSentUnder(hasSubmissionsFor);
providePlannedUnder(hasVisitsFor);
provideFilingWindowRead(filingWindowDays);
provideSentClaims(sentClaimReads);
