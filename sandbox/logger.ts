/**
 * Minimal line logger. The sandbox never logs patient identifiers, names or bodies: request lines
 * carry the route pattern (`/Claim/:id`), never the query string or the id.
 */
export interface Logger {
  info(line: string): void;
  error(line: string): void;
}

export const consoleLogger: Logger = {
  info: (line) => console.log(line),
  error: (line) => console.error(line),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };
