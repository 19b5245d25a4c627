/** The refusals the account forms can show (keys under `account.errors`); anything else reads as `failed`. */
export const ACCOUNT_ERRORS = new Set([
  "invalid",
  "failed",
  "forbidden",
  "unauthorized",
  "notFound",
  "lastAdmin",
  "selfLockout",
  "selfReset",
  "currentRequired",
  "wrongPassword",
  "tooShort",
  "tooLong",
  "mismatch",
  "sameAsCurrent",
  "rolesRequired",
]);

export const accountErrorKey = (code: string | undefined): string => `errors.${code && ACCOUNT_ERRORS.has(code) ? code : "failed"}`;
