/**
 * lib/errors: the one error catalogue (docs/decisions/031) — `AppError`, its codes, their HTTP
 * statuses and how each family renders them. No dependencies, so the proxy and lib/http can use it
 * without the API kernel behind lib/api.
 */
export * from "./catalogue";
