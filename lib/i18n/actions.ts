"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { isLocale, LOCALE_COOKIE } from "./config";

/** Saves the language choice for a year; works before and after sign-in. */
export async function setLocaleAction(formData: FormData): Promise<void> {
  // A forged call may pass anything as the argument: only a form is read.
  if (!(formData instanceof FormData)) return;
  const locale = formData.get("locale");
  if (!isLocale(locale)) return;
  (await cookies()).set(LOCALE_COOKIE, locale, {
    path: "/",
    maxAge: 365 * 24 * 60 * 60,
    sameSite: "lax",
    httpOnly: true,
  });
  revalidatePath("/", "layout");
}
