/**
 * The composition's owner reads for test processes (vitest's setup file; the pipeline's child
 * processes import it): the wiring boot does (lib/server/owner-reads.ts), so a test's messaging
 * port or patient correction reads through lib/submissions and lib/visits as the portal does. It
 * imports the files themselves, not the modules' entries, to keep every test file's start light.
 */
import { providePlannedUnder, provideSentUnder } from "@/lib/patients/sent-under";
import { provideSentClaims } from "@/lib/platform/payer-license";
import { hasSubmissionsFor } from "@/lib/submissions/reads/patients";
import { sentClaimReads } from "@/lib/submissions/reads/sent-claims";
import { hasVisitsFor } from "@/lib/visits/reads";

provideSentUnder(hasSubmissionsFor);
providePlannedUnder(hasVisitsFor);
provideSentClaims(sentClaimReads);
