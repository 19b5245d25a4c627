/**
 * Fills a database with realistic claim volume (see lib/submissions/testing/volume-seed.ts for what is
 * generated). Used by the claims-API benchmark and the managers' dashboards.
 *
 *   npm run seed:volume -- --claims 1000000 [--database-url postgres://…] [--batch 50000]
 *                          [--authorizations 0.08] [--days 365]
 *
 * Without --database-url it uses DATABASE_URL, else the embedded PGlite in DATA_DIR (the portal
 * must not be running then). Migrations are applied first. Rows are added to what is there.
 */
import { seedVolume } from "@/lib/submissions/testing";
import { openDatabase } from "@/lib/db/client";
import { runMigrations } from "@/lib/db/migrate";
import { dataDir, env } from "@/lib/env";

function arg(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const hit = process.argv[i]!;
  return hit.includes("=") ? hit.slice(hit.indexOf("=") + 1) : process.argv[i + 1];
}

async function main(): Promise<number> {
  const claims = Number(arg("claims"));
  if (!Number.isInteger(claims) || claims < 1) {
    console.error("Usage: npm run seed:volume -- --claims N [--database-url URL] [--batch 50000] [--authorizations 0.08] [--days 365]");
    return 2;
  }
  const url = arg("database-url") ?? env().DATABASE_URL;
  const database = await openDatabase(url ? { kind: "postgres", url, poolSize: 2 } : { kind: "pglite", dataDir: dataDir(env()) });
  try {
    await runMigrations(database);
    const started = Date.now();
    const result = await seedVolume(database, {
      claims,
      batchSize: arg("batch") ? Number(arg("batch")) : undefined,
      authorizationRatio: arg("authorizations") ? Number(arg("authorizations")) : undefined,
      days: arg("days") ? Number(arg("days")) : undefined,
      providerOrgId: env().PROVIDER_ORG_ID,
      onProgress: (done, total) => {
        const s = (Date.now() - started) / 1000;
        process.stdout.write(`\r${done.toLocaleString("en")} / ${total.toLocaleString("en")} submissions (${Math.round(done / s).toLocaleString("en")}/s)   `);
      },
    });
    process.stdout.write("\nanalyze …");
    await database.query("analyze submissions");
    await database.query("analyze submission_events");
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`\nSeeded ${result.claims.toLocaleString("en")} claims and ${result.authorizations.toLocaleString("en")} prior authorizations for ${result.patients.toLocaleString("en")} patients in ${seconds} s.`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`seed:volume failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
