import type { PatientGender } from "@/lib/db";

/** Same list as the database's (type-checked); kept here so the browser bundle needs no drizzle. */
export const GENDERS = ["female", "male", "other", "unknown"] as const satisfies readonly PatientGender[];
