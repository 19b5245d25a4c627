/**
 * Process entry of the platform sandbox: `node --import tsx sandbox/main.ts`.
 * Env: SANDBOX_PORT (9443), SANDBOX_DATA_DIR (.sandbox), SANDBOX_WEBHOOK_URL (unset: recorded, not
 * sent), SANDBOX_WEBHOOK_SECRET (generated), SANDBOX_ADJUDICATION_DELAY_MS (3000),
 * PROVIDER_ORG_ID (clinic-001).
 */
import { sandboxEnv } from "./env";
import { startSandbox } from "./server";

function main(): void {
  let options;
  try {
    options = sandboxEnv();
  } catch (error) {
    console.error(`sandbox: ${(error as Error).message}`);
    process.exit(2);
  }
  startSandbox(options).then(
    (sandbox) => {
      console.log(`sandbox ready on ${sandbox.url}`);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        console.log(`sandbox stopping (${signal})`);
        const force = setTimeout(() => process.exit(1), 5000);
        force.unref();
        sandbox.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.on("SIGINT", () => stop("SIGINT"));
      process.on("SIGTERM", () => stop("SIGTERM"));
    },
    (error: unknown) => {
      console.error(`sandbox: failed to start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

main();
