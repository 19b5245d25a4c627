import type { BenefitCategoryCode } from "@/lib/fhir/browser";

/** The categories a front desk usually asks about first (the rest stay one click away). */
export const COMMON_BENEFIT_CATEGORIES: BenefitCategoryCode[] = ["1", "2", "3", "4", "5", "62", "69", "F6"];
