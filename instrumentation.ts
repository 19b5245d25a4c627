/** Next.js calls register() once when a server process starts, before it serves requests. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { bootOrExit } = await import("./lib/server/boot");
  await bootOrExit();
}
