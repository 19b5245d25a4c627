/** A session ends 8 hours after sign-in whatever happens, or after 30 minutes without a request. */
export const SESSION_ABSOLUTE_MS = 8 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 30 * 60 * 1000;
