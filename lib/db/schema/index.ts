/** The database schema, one file per area. Migrations in drizzle/ are generated from all of them. */
export * from "./staff";
export * from "./platform";
export * from "./submissions";
export * from "./patients";
export * from "./attachments";
export * from "./api-access";
export * from "./dashboard";
export * from "./facilities";
export * from "./visits";
export * from "./communications";
export * from "./payments";
export * from "./denials";
export * from "./contracts";
export * from "./terminology";
export * from "./practitioners";
export * from "./inbox";
