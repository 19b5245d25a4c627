export type GatewayTokenActionState =
  | { status: "idle" }
  | { status: "created"; name: string; token: string }
  | { status: "revoked" }
  | { status: "error"; error: "unauthorized" | "forbidden" | "invalid" | "failed"; field?: "name" };

export type GatewayTokenAction = (prev: GatewayTokenActionState, form: FormData) => Promise<GatewayTokenActionState>;
