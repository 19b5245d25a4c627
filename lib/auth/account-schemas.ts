import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLE_NAMES } from "./account-policy";

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLE_NAMES };

/**
 * The account forms' inputs (decision 102), parsed by the browser form (zodResolver) and again by
 * the server action: one schema per input. Messages are catalogue keys under `account.errors`.
 */


const newPassword = z.string().min(PASSWORD_MIN_LENGTH, "tooShort").max(PASSWORD_MAX_LENGTH, "tooLong");

/** "Change my password": the current one, and the new one twice. */
export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, "currentRequired").max(PASSWORD_MAX_LENGTH, "currentRequired"),
    newPassword,
    confirmPassword: z.string().max(PASSWORD_MAX_LENGTH, "mismatch"),
  })
  .refine((v) => v.confirmPassword === v.newPassword, { path: ["confirmPassword"], message: "mismatch" })
  .refine((v) => v.newPassword !== v.currentPassword, { path: ["newPassword"], message: "sameAsCurrent" });
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** One user, by id: reset password, unlock. */
export const userRefSchema = z.object({ userId: z.uuid("invalid") });
export type UserRefInput = z.input<typeof userRefSchema>;

/** An administrator's new set of roles for a user (at least one). */
export const setRolesSchema = z.object({
  userId: z.uuid("invalid"),
  roles: z.array(z.enum(ROLE_NAMES, "rolesRequired")).min(1, "rolesRequired").max(ROLE_NAMES.length, "rolesRequired"),
});
export type SetRolesInput = z.input<typeof setRolesSchema>;

/** Disable (true) or enable (false) a user. */
export const setDisabledSchema = z.object({ userId: z.uuid("invalid"), disabled: z.boolean() });
export type SetDisabledInput = z.input<typeof setDisabledSchema>;
