"use client";

import { lazyInPlace } from "@/components/forms/lazy-section";

// The claim form page's parts that only one of its views shows (decision 108, amended 2026-11-29):
// the confirmation's live refresh and a draft's filing deadline stay out of the form's first load.
export const LazyLiveRefresh = lazyInPlace(() => import("@/components/live/submission-live-refresh").then((m) => m.SubmissionLiveRefresh));
export const LazyDeadlineBadge = lazyInPlace(() => import("@/components/deadlines/deadline-badge").then((m) => m.DeadlineBadge));
