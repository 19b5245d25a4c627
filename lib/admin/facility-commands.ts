import { addFacility, assignUserFacility, listFacilities, setFacilityActive } from "@/lib/facilities";
import { dbCommand } from "./db-command";
import { single, type AdminCommand } from "./types";

/** Facilities of the clinic group (decision 049): each with its licence, certificate and optional OAuth client. */
export const facilityCommands: AdminCommand[] = [
  dbCommand({
    name: "facility:add",
    summary: "Add a facility with its provider licence and its own client certificate (PEM files the portal can read).",
    usage: "facility:add --code C --name-en N --name-ar N --license L --cert FILE --key FILE [--client-id ID --client-secret-file FILE]",
    async run({ flags, db, audit }) {
      const clientId = single(flags, "client-id", false);
      const secretFile = single(flags, "client-secret-file", false);
      const f = await addFacility(db, {
        code: single(flags, "code")!,
        nameEn: single(flags, "name-en")!,
        nameAr: single(flags, "name-ar")!,
        providerLicense: single(flags, "license")!,
        certFile: single(flags, "cert")!,
        keyFile: single(flags, "key")!,
        ...(clientId ? { oauthClientId: clientId } : {}),
        ...(secretFile ? { oauthClientSecretFile: secretFile } : {}),
      });
      await audit({ action: "facility.add", target: { type: "facility", id: f.id! }, outcome: "success", details: { code: f.code, license: f.providerLicense } });
      return {
        text: `Added facility ${f.code} (licence ${f.providerLicense}); its certificate is valid until ${f.notAfter.toISOString().slice(0, 10)}.`,
        json: { id: f.id, code: f.code, license: f.providerLicense, certFile: f.certFile, keyFile: f.keyFile, notAfter: f.notAfter.toISOString(), ownOAuthClient: Boolean(f.oauthClientId) },
      };
    },
  }),
  dbCommand({
    name: "facility:list",
    summary: "List the facilities besides the main one.",
    usage: "facility:list",
    async run({ db }) {
      const rows = await listFacilities(db);
      return {
        text: rows.map((f) => `${f.code.padEnd(16)} ${(f.providerLicense ?? "").padEnd(18)} ${f.active ? "active  " : "inactive"} ${f.certFile}`).join("\n") || "No facilities besides the main one.",
        json: rows.map((f) => ({ id: f.id, code: f.code, nameEn: f.name.en, nameAr: f.name.ar, license: f.providerLicense, active: f.active, certFile: f.certFile, keyFile: f.keyFile, ownOAuthClient: Boolean(f.oauthClientId) })),
      };
    },
  }),
  ...([true, false] as const).map(
    (active): AdminCommand =>
      dbCommand({
        name: active ? "facility:activate" : "facility:deactivate",
        summary: active ? "Let a facility's users reach the platform again." : "Stop a facility's traffic: its queued work waits, its users cannot check eligibility.",
        usage: `${active ? "facility:activate" : "facility:deactivate"} --code C`,
        async run({ flags, db, audit }) {
          const f = await setFacilityActive(db, single(flags, "code")!, active);
          await audit({ action: active ? "facility.activate" : "facility.deactivate", target: { type: "facility", id: f.id! }, outcome: "success", details: { code: f.code } });
          return { text: `Facility ${f.code} is ${active ? "active" : "inactive"}.`, json: { code: f.code, active: f.active } };
        },
      }),
  ),
  dbCommand({
    name: "user:facility",
    summary: "Assign a user to a facility (main = the main facility); their claims and checks go out with its certificate.",
    usage: "user:facility --email E --facility CODE",
    async run({ flags, db, audit }) {
      const email = single(flags, "email")!;
      const code = single(flags, "facility")!;
      const result = await assignUserFacility(db, email, code);
      await audit({ action: "user.facility", target: { type: "user", id: result.userId }, outcome: "success", details: { facility: code } });
      return { text: `${email} now works at facility ${code}.`, json: { userId: result.userId, facility: code } };
    },
  }),
];
