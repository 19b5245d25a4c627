/** What the API-access server actions answer (app/(portal)/settings/api-access/actions.ts). */
export type ApiAccessActionState =
  | { status: "idle" }
  | { status: "created"; kind: "key"; name: string; key: string; prefix: string }
  | { status: "created"; kind: "client"; name: string; clientId: string; clientSecret: string }
  | { status: "revoked" }
  | { status: "error"; error: "unauthorized" | "forbidden" | "invalid" | "failed"; field?: "name"; detail?: string };

export type ApiAccessAction = (prev: ApiAccessActionState, form: FormData) => Promise<ApiAccessActionState>;
